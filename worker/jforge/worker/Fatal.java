package jforge.worker;

import static jforge.worker.Proto.M_OOM;
import static jforge.worker.Proto.M_SOE;

/**
 * An OutOfMemoryError or StackOverflowError met while the code under test ran, rethrown as
 * this so that it is never reported as a statement's value or exception. Why: a JVM that ran
 * out of heap or stack may be in any state, so the worker records the reason in the progress
 * file and halts (see Progress.crash), and jforge blames the statement and starts a new one.
 */
final class Fatal extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The progress-file marker: Proto.M_OOM or Proto.M_SOE. */
    final int marker;

    Fatal(int marker) {
        super(null, null, false, false);
        this.marker = marker;
    }

    /** Rethrows an OOM or a stack overflow anywhere in t's cause chain as Fatal. */
    static void check(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                throw new Fatal(M_OOM);
            }
            if (c instanceof StackOverflowError) {
                throw new Fatal(M_SOE);
            }
            if (c.getCause() == c) {
                break;
            }
        }
    }
}
