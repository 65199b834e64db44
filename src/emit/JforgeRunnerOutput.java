// The results file of jforge's test runners (JforgeJUnit4Runner, JforgeJUnit5Runner,
// JforgePlatformListener), shared by all of them: one tab-separated line per event, fields
// escaped (backslash, tab, newline, CR), flushed as it goes, so that a test that kills or hangs
// the JVM is still identified. Lines:
//   START  class  method
//   PASS   class  method  nanos  bytes
//   FAIL   class  method  exception-class  message  nanos  bytes  line   (method empty:
//                                              class-level; no nanos/bytes/line then)
//   HITS   id,id,...     coverage probes hit for the first time in this JVM (see below)
//   DONE
// nanos is the wall time from the test's start to its end as JUnit reports them; bytes is what
// the test's thread allocated meanwhile (com.sun.management.ThreadMXBean; -1 where the JVM
// cannot tell). Threads a test starts are not counted. line is the line of the test method where
// it failed (its first frame in the stack trace), empty when unknown.
//
// Coverage: when the JVM runs instrumented classes and -Djforge.validate.probes=N is set, the
// probes hit are drained from jforge.rt.Cov (by reflection: this file compiles against the JDK
// alone) after every test and written as HITS, only those not written before by this JVM. A JVM
// killed during a test therefore loses only that test's hits.
//
// Also turns System.exit in a test into a SecurityException where the JDK still allows it.
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;

final class JforgeRunnerOutput {
    private static PrintStream out;
    static volatile boolean allowExit;
    private static long startNanos;
    private static long startBytes;
    private static Object threads;
    private static Method drain;
    private static int probes;
    private static boolean[] reported;

    private JforgeRunnerOutput() {}

    /** Opens the results file (appending), blocks System.exit and finds the coverage runtime. */
    static synchronized void open(String path) throws IOException {
        out = new PrintStream(new FileOutputStream(path, true), false, "UTF-8");
        blockExit();
        try {
            Object mx = ManagementFactory.getThreadMXBean();
            if (mx instanceof com.sun.management.ThreadMXBean) {
                threads = mx;
            }
        } catch (Throwable t) {
            threads = null;
        }
        String n = System.getProperty("jforge.validate.probes");
        if (n != null) {
            try {
                probes = Integer.parseInt(n);
                drain = Class.forName("jforge.rt.Cov").getMethod("drain", int.class);
                reported = new boolean[probes];
            } catch (Throwable t) {
                emit("NOTE", "coverage runtime not available: " + t);
                drain = null;
            }
        }
    }

    static boolean isOpen() {
        return out != null;
    }

    static String esc(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\': b.append("\\\\"); break;
                case '\t': b.append("\\t"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                default: b.append(c);
            }
        }
        return b.toString();
    }

    static synchronized void emit(String... fields) {
        if (out == null) return;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) b.append('\t');
            b.append(esc(fields[i]));
        }
        b.append('\n');
        out.print(b);
        out.flush();
    }

    @SuppressWarnings("deprecation")
    private static long allocated() {
        Object mx = threads;
        if (mx == null) return -1;
        try {
            return ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(Thread.currentThread().getId());
        } catch (Throwable t) {
            return -1;
        }
    }

    /** A test starts (called on the test's thread). */
    static synchronized void started(String cls, String method) {
        emit("START", cls, method);
        startBytes = allocated();
        startNanos = System.nanoTime();
    }

    private static String[] measured() {
        long ns = System.nanoTime() - startNanos;
        long now = allocated();
        long bytes = now < 0 || startBytes < 0 ? -1 : now - startBytes;
        return new String[] {Long.toString(ns), Long.toString(bytes)};
    }

    /** The test that started last passed (called on the test's thread). */
    static synchronized void passed(String cls, String method) {
        String[] m = measured();
        emit("PASS", cls, method, m[0], m[1]);
        flushHits();
    }

    /** The test that started last failed with {@code t} (called on the test's thread). */
    static synchronized void failed(String cls, String method, Throwable t) {
        String[] m = measured();
        emit("FAIL", cls, method, t == null ? "" : t.getClass().getName(), t == null ? "" : String.valueOf(t.getMessage()),
            m[0], m[1], lineIn(cls, method, t));
        flushHits();
    }

    /** The line of {@code cls.method} where {@code t} was thrown (its first frame), or "". */
    private static String lineIn(String cls, String method, Throwable t) {
        if (t == null) {
            return "";
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(cls) && e.getMethodName().equals(method) && e.getLineNumber() > 0) {
                return String.valueOf(e.getLineNumber());
            }
        }
        return "";
    }

    /** A whole class failed (initialisation, no runnable method...). */
    static synchronized void classFailed(String cls, Throwable t) {
        emit("FAIL", cls, "", t == null ? "" : t.getClass().getName(), t == null ? "" : String.valueOf(t.getMessage()));
        flushHits();
    }

    private static void flushHits() {
        Method d = drain;
        if (d == null) return;
        int[] ids;
        try {
            ids = (int[]) d.invoke(null, probes);
        } catch (Throwable t) {
            return;
        }
        StringBuilder b = null;
        for (int id : ids) {
            if (id < 0 || id >= reported.length || reported[id]) continue;
            reported[id] = true;
            if (b == null) {
                b = new StringBuilder();
            } else {
                b.append(',');
            }
            b.append(id);
        }
        if (b != null) emit("HITS", b.toString());
    }

    /** Writes DONE, closes the file and lets the runner exit. */
    static synchronized void done() {
        flushHits();
        emit("DONE");
        if (out != null) out.close();
        out = null;
        allowExit = true;
    }

    @SuppressWarnings({"removal", "deprecation"})
    private static void blockExit() {
        try {
            System.setSecurityManager(new SecurityManager() {
                @Override public void checkPermission(java.security.Permission p) {}
                @Override public void checkPermission(java.security.Permission p, Object ctx) {}
                @Override public void checkExit(int status) {
                    if (!allowExit) throw new SecurityException("jforge: a test called System.exit(" + status + ")");
                }
            });
        } catch (Throwable t) {
            // Not supported by this JDK: a test that exits is found by its missing result.
        }
    }

    /** Reads the run order: one {@code class<TAB>method} per line. */
    static java.util.List<String[]> readOrder(String path) throws IOException {
        java.util.List<String[]> v = new java.util.ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Paths.get(path), java.nio.charset.StandardCharsets.UTF_8)) {
            int t = line.indexOf('\t');
            if (t > 0) v.add(new String[] {line.substring(0, t), line.substring(t + 1)});
        }
        return v;
    }
}
