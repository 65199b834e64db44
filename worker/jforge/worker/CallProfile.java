package jforge.worker;

import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * A diagnostic: with -Djforge.profileCalls=PREFIX (e.g. through JAVA_TOOL_OPTIONS) the worker
 * sums per operation the wall time of its calls, and per phase the time of a sequence
 * (statements, contracts, leak checks, waiting for the next request), and rewrites
 * PREFIX.PID every two seconds. Why: a whole package ran at a tenth of one class's rate with
 * the CPU half idle, and the progress file says what runs, not where the time goes. Lines
 * "big OP CALLS BYTES NAME" count an operation's calls that allocated at least 8 MiB (a
 * huge allocation that did not fail still costs its zeroing) and the bytes all its calls
 * allocated. Off by default: one branch per call.
 */
final class CallProfile {
    static final String FILE = System.getProperty("jforge.profileCalls");
    static final boolean ON = FILE != null;

    private static long[] count = new long[256];
    private static long[] total = new long[256];
    private static long[] max = new long[256];
    /** Bytes the calls allocated, and how many calls allocated at least BIG bytes. */
    private static long[] bytes = new long[256];
    private static long[] big = new long[256];
    static final long BIG = 8L << 20;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Phases: 0 waiting for a request, 1 statements, 2 contracts/observers, 3 leaks, 4 send. */
    static final long[] PHASE = new long[5];
    static long seqs;
    private static long lastDump = System.nanoTime();

    private CallProfile() {}

    /** Bytes the calling thread allocated so far. */
    static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    static void call(int op, long nanos, long allocated) {
        if (op < 0) {
            return;
        }
        if (op >= count.length) {
            int n = Math.max(op + 1, count.length * 2);
            count = Arrays.copyOf(count, n);
            total = Arrays.copyOf(total, n);
            max = Arrays.copyOf(max, n);
            bytes = Arrays.copyOf(bytes, n);
            big = Arrays.copyOf(big, n);
        }
        bytes[op] += allocated;
        if (allocated >= BIG) {
            big[op]++;
        }
        count[op]++;
        total[op] += nanos;
        max[op] = Math.max(max[op], nanos);
    }

    /**
     * Appends one line about a call over the limit to PREFIX.timeouts.PID at once (not every
     * two seconds: the worker may halt right after): what the watchdog did (interrupt, stop,
     * halt and why), how long the call had run and waited, and the top of its stack. Why: a
     * run's timeouts are few and each costs a call limit or a JVM start; the profile's per
     * operation maximum hides which of them was cut how.
     */
    static void timeout(String what, long ranNanos, long waitedNanos, long limitNanos, Thread t) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%s ran %.3f waited %.3f limit %.3f state %s", what, ranNanos / 1e9,
                waitedNanos / 1e9, limitNanos / 1e9, t == null ? "?" : t.getState()));
        if (t != null) {
            StackTraceElement[] st = t.getStackTrace();
            for (int i = 0; i < Math.min(what.startsWith("halt") ? 60 : 8, st.length); i++) {
                sb.append(" | ").append(st[i]);
            }
        }
        appendTimeout(sb.toString());
    }

    /** Appends a line to PREFIX.timeouts.PID. */
    private static void appendTimeout(String line) {
        try (PrintWriter w = new PrintWriter(new FileWriter(FILE + ".timeouts." + ProcessHandle.current().pid(), true))) {
            w.println(line);
        } catch (IOException e) {
            // a diagnostic only
        }
    }

    /** Appends the operation of a call over the limit that ended (stopped or not) to PREFIX.timeouts.PID. */
    static void timeoutEnded(Registry registry, int op, String how, long nanos) {
        appendTimeout(String.format("ended %s after %.3f op %d %s", how, nanos / 1e9, op, opName(registry, op)));
    }

    /** The member an operation calls, as the profile names it. */
    private static String opName(Registry registry, int op) {
        Registry.Op o = registry.op(op);
        return o == null ? "?" : o.ctor != null ? o.ctor.toString()
                : o.method != null ? o.method.toString() : String.valueOf(o.field);
    }

    /** Rewrites the profile file when two seconds passed since the last time. */
    static void dumpMaybe(Registry registry) {
        long now = System.nanoTime();
        if (now - lastDump < 2_000_000_000L) {
            return;
        }
        lastDump = now;
        try (PrintWriter w = new PrintWriter(new FileWriter(FILE + "." + ProcessHandle.current().pid()))) {
            w.printf("seqs %d wait %.3f stmts %.3f after %.3f leaks %.3f send %.3f%n", seqs, PHASE[0] / 1e9,
                    PHASE[1] / 1e9, PHASE[2] / 1e9, PHASE[3] / 1e9, PHASE[4] / 1e9);
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                w.printf("gc %s %d %.3f%n", gc.getName().replace(' ', '_'), gc.getCollectionCount(),
                        gc.getCollectionTime() / 1e3);
            }
            long[] durations = Progress.histogram;
            if (durations != null) {
                w.print("durations");
                for (int b = 0; b < durations.length; b++) {
                    if (durations[b] > 0) {
                        w.printf(" %d:%d", b, durations[b]);
                    }
                }
                w.println();
            }
            for (int op = 0; op < count.length; op++) {
                if (count[op] > 0) {
                    String name = opName(registry, op);
                    w.printf("op %d %d %.6f %.6f %s%n", op, count[op], total[op] / 1e9, max[op] / 1e9, name);
                    if (big[op] > 0) {
                        w.printf("big %d %d %d %s%n", op, big[op], bytes[op], name);
                    }
                }
            }
        } catch (IOException e) {
            // a diagnostic only
        }
    }
}
