package org.acme.grades;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class GradeTest {
    @Test
    void ninetyFiveIsAnA() {
        assertEquals("A", new Grade(95).letter());
    }

    @Test
    void fiftyFails() {
        assertFalse(new Grade(50).passed());
    }
}
