package org.acme.grades;

import org.junit.jupiter.api.Test;

/** Closes the console, as a test of a printer over System.out may. */
class ConsoleTest {
    @Test
    void closesSystemOut() {
        System.out.close();
    }
}
