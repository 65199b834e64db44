package jforge.worker;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static jforge.worker.Proto.CLOCK_SECTION;

/**
 * The worker's side of the clock jforge controls: the code under test reads jforge.rt.JClock
 * (its clock calls are rewritten, see src/instrument/clock.rs), whose mode is the system
 * property jforge.clock. Before each sequence the clock starts again, so that a sequence sees
 * the same times whatever ran before it in this JVM (generation stays deterministic for any
 * number of workers); after it, the number of reads goes into the RESULT frame (jforge counts
 * the assertions dropped because they read the clock). Through method handles, like Coverage:
 * JClock is on the class path only when classes are rewritten; without -Djforge.clock nothing
 * here runs and frames stay as they were.
 */
final class ClockControl {
    static final boolean ON = System.getProperty("jforge.clock") != null;

    private final ClassLoader loader;
    private MethodHandle reset;
    private MethodHandle reads;
    private boolean broken;

    ClockControl(ClassLoader loader) {
        this.loader = loader;
    }

    private boolean link() {
        if (!ON || broken) {
            return false;
        }
        if (reset == null) {
            try {
                Class<?> c = Class.forName("jforge.rt.JClock", true, loader);
                MethodHandles.Lookup l = MethodHandles.lookup();
                reset = l.findStatic(c, "reset", MethodType.methodType(void.class));
                reads = l.findStatic(c, "reads", MethodType.methodType(int.class));
            } catch (Throwable t) {
                broken = true;
                return false;
            }
        }
        return true;
    }

    /** Starts the clock again for a new sequence. */
    void start() {
        if (!link()) {
            return;
        }
        try {
            reset.invokeExact();
        } catch (Throwable t) {
            broken = true;
        }
    }

    /** Appends the clock section (reads since {@link #start}) when the sequence read the clock. */
    void append(Buf out) {
        if (!link()) {
            return;
        }
        int n;
        try {
            n = (int) reads.invokeExact();
        } catch (Throwable t) {
            return;
        }
        if (n <= 0) {
            return;
        }
        out.u8(CLOCK_SECTION);
        while ((n & ~0x7F) != 0) {
            out.u8((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        out.u8(n);
    }
}
