package jforge.worker;

import static jforge.worker.Proto.M_OOM;
import static jforge.worker.Proto.M_SOE;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

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
    /** Whether the JVM ran a full collection before throwing (see {@link #collected}). */
    final boolean collected;

    Fatal(int marker, boolean recoverable, boolean collected) {
        super(null, null, false, false);
        this.marker = marker;
        this.recoverable = recoverable;
        this.collected = collected;
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
     * Whether the JVM collected the heap fully before throwing this OutOfMemoryError (it does
     * before "Java heap space" and "GC overhead limit exceeded", not before "Requested array
     * size exceeds VM limit", which it checks before allocating).
     */
    static boolean collected(OutOfMemoryError e) {
        String m = e.getMessage();
        return m != null && (m.contains("Java heap space") || m.contains("GC overhead"));
    }

    /**
     * After the sequence's values were dropped: says whether the heap is below half its
     * maximum again (else the worker cannot be trusted to run the next sequence). Without a
     * collection of its own when it can: the heap in use now (garbage included), or, after an
     * OutOfMemoryError of the Java heap, the heap the JVM's own full collection before the
     * throw kept (the sequence's values still live then, so an upper bound of what is live
     * now), below half is enough. Why: that collection already ran, and another System.gc()
     * was a second full collection per OutOfMemoryError (guava collect: 446 full against 166
     * young collections in a worker of a 60 s run). Only a heap the sequence itself filled
     * (the collection kept it over half full) is collected again, once its values are gone.
     */
    static boolean heapRecovered(boolean collected) {
        Runtime rt = Runtime.getRuntime();
        long half = rt.maxMemory() / 2;
        if (rt.totalMemory() - rt.freeMemory() < half || (collected && keptByLastCollection() < half)) {
            return true;
        }
        System.gc();
        return rt.totalMemory() - rt.freeMemory() < half;
    }

    /**
     * The heap the last collection of each heap pool kept (MemoryPoolMXBean.getCollectionUsage):
     * after an OutOfMemoryError of the Java heap, what the full collection before the throw
     * left; Long.MAX_VALUE when a pool does not tell.
     */
    static long keptByLastCollection() {
        long kept = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() != MemoryType.HEAP) {
                continue;
            }
            MemoryUsage u = p.getCollectionUsage();
            if (u == null) {
                return Long.MAX_VALUE;
            }
            kept += u.getUsed();
        }
        return kept;
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
                throw new Fatal(M_OOM, heapOnly(oom), collected(oom));
            }
            if (c instanceof StackOverflowError) {
                throw new Fatal(M_SOE, true, false);
            }
            if (c.getCause() == c) {
                break;
            }
        }
    }
}
