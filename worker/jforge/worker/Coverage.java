package jforge.worker;

import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static jforge.worker.Proto.COMPARED_NUMS_SECTION;
import static jforge.worker.Proto.COMPARED_SECTION;
import static jforge.worker.Proto.COVERAGE_SECTION;

/**
 * The worker's side of coverage: per-sequence probe hits and comparison logging, taken from
 * jforge.rt.Cov, the runtime of instrumented classes. Why through method handles: Cov is on
 * the class path (or patched into java.base) only when coverage is on, so the worker cannot
 * link against it; without -Djforge.cov.probes nothing here runs and RESULT frames stay
 * byte-identical to a run without coverage. Why pause: the worker's own calls into the code
 * under test (fingerprint hashCode, contract checks) must not count, so that a sequence's
 * coverage is what a test written from it runs. Why discard the probes and the comparison
 * log before the first statement: request decoding may run instrumented JDK classes with
 * values that depend on the worker's history (see ARCHITECTURE.md, Coverage).
 */
final class Coverage {
    /** Number of probes when the classes under test are instrumented (jforge.cov.probes), else -1. */
    static final int COV_PROBES = Integer.getInteger("jforge.cov.probes", -1);
    private static final int[] NO_IDS = new int[0];
    private static final long[] NO_LONGS = new long[0];
    private static final String[] NO_STRINGS = new String[0];

    private final ClassLoader loader;
    private final PrintStream realErr;
    private MethodHandle drain;
    private MethodHandle pauseH;
    private MethodHandle resumeH;
    private boolean broken;
    private MethodHandle compared;
    private MethodHandle nums;
    private boolean cmpBroken;
    private String[] pendingStrs = NO_STRINGS;
    private long[] pendingNums = NO_LONGS;

    Coverage(ClassLoader loader, PrintStream realErr) {
        this.loader = loader;
        this.realErr = realErr;
    }

    /**
     * Pauses coverage recording around the worker's own calls into the code under test.
     * Returns the token for {@link #resume}; null without coverage.
     */
    Object pause() {
        if (COV_PROBES < 0 || broken) {
            return null;
        }
        try {
            if (pauseH == null) {
                Class<?> c = Class.forName("jforge.rt.Cov", true, loader);
                MethodHandles.Lookup l = MethodHandles.lookup();
                pauseH = l.findStatic(c, "pause", MethodType.methodType(boolean[].class));
                resumeH = l.findStatic(c, "resume", MethodType.methodType(void.class, boolean[].class));
            }
            return (boolean[]) pauseH.invokeExact();
        } catch (Throwable t) {
            broken = true;
            realErr.println("jforge worker: coverage runtime unavailable: " + t);
            return null;
        }
    }

    private static final java.lang.management.ClassLoadingMXBean CLASSES = classLoading();

    private static java.lang.management.ClassLoadingMXBean classLoading() {
        try {
            return java.lang.management.ManagementFactory.getClassLoadingMXBean();
        } catch (Throwable t) {
            return null;
        }
    }

    /**
     * Classes the JVM loaded so far, hidden ones (lambdas, method handle forms) included; -1
     * when unknown. 16 ns a read, with -XX:-UsePerfData too (see Executor.runAgain).
     */
    static long loadedClasses() {
        try {
            return CLASSES == null ? -1 : CLASSES.getTotalLoadedClassCount();
        } catch (Throwable t) {
            return -1;
        }
    }

    /**
     * Calls each method handle into the runtime past the JDK's customization threshold (127
     * calls of one handle, then its form is compiled: a class spun with ArrayLists), before
     * the first sequence. Why: pause and drain are called while probes are recorded, and the
     * 128th call's spinning landed in whichever sequence it fell on, which differs between 1
     * and 2 workers (see Executor.covLive).
     */
    void warmUp() {
        if (COV_PROBES < 0) {
            return;
        }
        for (int i = 0; i < 200; i++) {
            resume(pause());
            drainCmp();
            drainProbes();
        }
        pendingStrs = NO_STRINGS;
        pendingNums = NO_LONGS;
    }

    /** Whether probes are recorded (coverage on and its runtime reachable). */
    boolean on() {
        return COV_PROBES >= 0 && !broken;
    }

    void resume(Object live) {
        if (live == null || resumeH == null) {
            return;
        }
        try {
            resumeH.invokeExact((boolean[]) live);
        } catch (Throwable t) {
            broken = true;
        }
    }

    /**
     * With coverage on, appends to a RESULT frame the probes hit since the previous sequence
     * (the marker, a varint count, then varint deltas of the increasing ids) and the operands
     * the sequence compared (see {@link #cmpStart}). Without coverage nothing is written.
     */
    void append(Buf out) {
        if (COV_PROBES < 0) {
            return;
        }
        int[] ids = drainProbes();
        out.u8(COVERAGE_SECTION);
        varint(out, ids.length);
        int prev = 0;
        for (int id : ids) {
            varint(out, id - prev);
            prev = id;
        }
        // Comparison logging: operands compared while the sequence ran (see cmpStart).
        String[] cmp = pendingStrs;
        long[] ns = pendingNums;
        pendingStrs = NO_STRINGS;
        pendingNums = NO_LONGS;
        if (cmp.length > 0) {
            out.u8(COMPARED_SECTION);
            varint(out, cmp.length);
            for (String x : cmp) {
                out.str(x);
            }
        }
        // ... and int/long operands of if_icmp* and lcmp, in pairs.
        if (ns.length > 0) {
            out.u8(COMPARED_NUMS_SECTION);
            varint(out, ns.length);
            for (long x : ns) {
                long z = (x << 1) ^ (x >> 63); // zigzag
                while ((z & ~0x7FL) != 0) {
                    out.u8((int) ((z & 0x7F) | 0x80));
                    z >>>= 7;
                }
                out.u8((int) z);
            }
        }
    }

    /** The probes hit since the last drain, increasing, cleared; none without the runtime. */
    private int[] drainProbes() {
        if (drain == null && !broken) {
            try {
                // A full-power lookup: with JDK classes patched, jforge.rt lives in java.base and
                // is exported to the unnamed module only.
                Class<?> c = Class.forName("jforge.rt.Cov", true, loader);
                drain = MethodHandles.lookup().findStatic(c, "drain",
                        MethodType.methodType(int[].class, int.class));
            } catch (Throwable t) {
                broken = true;
                realErr.println("jforge worker: coverage runtime unavailable: " + t);
            }
        }
        if (drain == null) {
            return NO_IDS;
        }
        try {
            return (int[]) drain.invokeExact(COV_PROBES);
        } catch (Throwable t) {
            return NO_IDS;
        }
    }

    /**
     * Starts the probes and the comparison log of a sequence: discards what was hit and
     * logged since the last sequence. Request decoding and the worker's own bookkeeping
     * (the type registry's lists, the class-name tables, sending the previous result) may
     * run instrumented JDK classes, with values that depend on the worker's history: the
     * list that grows at this worker's eleventh type hits ArrayList.grow's branches in
     * whatever sequence it decodes then, which differs between 1 and 2 workers. Counted,
     * such probes made a sequence new coverage (a candidate) in one run and not in the
     * other, and per-class budget weights differ (see ARCHITECTURE.md, "Budget by class").
     */
    void cmpStart() {
        if (COV_PROBES < 0) {
            return;
        }
        drainProbes();
        pendingStrs = NO_STRINGS;
        pendingNums = NO_LONGS;
        drainCmp();
    }

    /** Ends the comparison log of a sequence: keeps what was logged for the RESULT frame. */
    void cmpStop() {
        if (COV_PROBES < 0) {
            return;
        }
        drainCmp();
    }

    private void drainCmp() {
        if (compared == null && nums == null && !cmpBroken) {
            try {
                Class<?> c = Class.forName("jforge.rt.Cov", true, loader);
                MethodHandles.Lookup l = MethodHandles.lookup();
                compared = l.findStatic(c, "drainCompared", MethodType.methodType(String[].class));
                nums = l.findStatic(c, "drainNums", MethodType.methodType(long[].class));
            } catch (Throwable t) {
                cmpBroken = true; // no runtime, or an older one: no comparison logging
            }
        }
        if (compared == null || nums == null) {
            return;
        }
        try {
            pendingStrs = (String[]) compared.invokeExact();
            pendingNums = (long[]) nums.invokeExact();
        } catch (Throwable t) {
            pendingStrs = NO_STRINGS;
            pendingNums = NO_LONGS;
        }
    }

    private static void varint(Buf out, int v) {
        while ((v & ~0x7F) != 0) {
            out.u8((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.u8(v);
    }
}
