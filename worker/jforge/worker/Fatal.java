package jforge.worker;

import static jforge.worker.Proto.M_OOM;
import static jforge.worker.Proto.M_SOE;

/**
 * An OutOfMemoryError or StackOverflowError met while the code under test ran, rethrown as
 * this so that it is never reported as a statement's value or exception. The worker then
 * survives it when it can (Executor.crashed): a stack overflow has unwound its stack, and a
 * heap exhausted by one oversized allocation is free again once the sequence's values are
 * dropped; the statement's outcome is the crash (O_CRASH), blamed on the statement running.
 * Only when it cannot go on (heap still nearly full after a collection, memory other than the
 * heap: metaspace, native threads, direct buffers) does it record the reason in the progress
 * file and halt (Progress.crash), and jforge starts a new one. Why: on whole packages such
 * restarts took most of the run (each a JVM start plus class loading).
 */
final class Fatal extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The progress-file marker: Proto.M_OOM or Proto.M_SOE. */
    final int marker;
    /** Whether the worker may go on after it (see {@link #heapOnly}); always for a stack overflow. */
    final boolean recoverable;

    Fatal(int marker, boolean recoverable) {
        super(null, null, false, false);
        this.marker = marker;
        this.recoverable = recoverable;
    }

    /**
     * Whether an OutOfMemoryError is about the Java heap (an allocation too large or a heap
     * filled by the sequence), which a collection can give back, and not about memory the
     * JVM cannot reclaim that way (metaspace, native threads, direct buffers).
     */
    static boolean heapOnly(OutOfMemoryError e) {
        String m = e.getMessage();
        return m == null || m.contains("Java heap space") || m.contains("array size")
                || m.contains("GC overhead");
    }

    /**
     * After the sequence's values were dropped: collects and says whether the heap is below
     * half its maximum again (else the worker cannot be trusted to run the next sequence).
     */
    static boolean heapRecovered() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        return used < rt.maxMemory() / 2;
    }

    /**
     * Rethrows an OOM or a stack overflow anywhere in t's cause chain as Fatal, and the
     * ThreadDeath of a call the watchdog stopped as it is (the code catching it, such as a
     * contract check, must not report it as the call's exception).
     */
    @SuppressWarnings("removal")
    static void check(Throwable t) {
        if (t instanceof ThreadDeath d) {
            throw d;
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError oom) {
                throw new Fatal(M_OOM, heapOnly(oom));
            }
            if (c instanceof StackOverflowError) {
                throw new Fatal(M_SOE, true);
            }
            if (c.getCause() == c) {
                break;
            }
        }
    }
}
