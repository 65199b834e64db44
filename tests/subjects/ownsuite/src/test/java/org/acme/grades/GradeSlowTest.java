package org.acme.grades;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Excluded by the build (Surefire's excludes): its coverage must not count. */
class GradeSlowTest {
    @Test
    void everyLetter() {
        assertEquals("B", new Grade(85).letter());
        assertEquals("C", new Grade(75).letter());
        assertEquals("D", new Grade(65).letter());
        assertEquals("F", new Grade(5).letter());
        assertEquals(true, new Grade(60).passed());
        assertThrows(IllegalArgumentException.class, () -> new Grade(-1));
        assertThrows(IllegalArgumentException.class, () -> new Grade(101));
    }
}
