/**
 * Runs another main class (the JUnit console launcher) and, when the JVM exits, writes the ids
 * of the coverage probes that were hit (one per line) to the file named by the first argument.
 * Arguments: OUT_FILE PROBE_COUNT MAIN_CLASS ARGS...
 *
 * System.out and System.err cannot be closed while it runs: a project's own test that closes
 * System.out (a printer over it, closed) silenced the launcher's summary, which is how the
 * number of tests that ran is read.
 */
public final class JforgeCovLauncher {
    private JforgeCovLauncher() {}

    public static void main(String[] a) throws Throwable {
        final String out = a[0];
        final int n = Integer.parseInt(a[1]);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (java.io.PrintWriter w = new java.io.PrintWriter(new java.io.FileWriter(out))) {
                for (int id : jforge.rt.Cov.drain(n)) {
                    w.println(id);
                }
            } catch (java.io.IOException e) {
                e.printStackTrace();
            }
        }));
        System.setOut(unclosable(System.out));
        System.setErr(unclosable(System.err));
        Class<?> c = Class.forName(a[2]);
        String[] rest = java.util.Arrays.copyOfRange(a, 3, a.length);
        try {
            c.getMethod("main", String[].class).invoke(null, (Object) rest);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A stream over {@code s} whose close() only flushes. */
    private static java.io.PrintStream unclosable(java.io.PrintStream s) {
        return new java.io.PrintStream(s, true) {
            @Override
            public void close() {
                flush();
            }
        };
    }
}
