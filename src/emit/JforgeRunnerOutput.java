// The results file of jforge's test runners (JforgeJUnit4Runner, JforgeJUnit5Runner), shared
// by both: one tab-separated line per event, fields escaped (backslash, tab, newline, CR),
// flushed as it goes, so that a test that kills or hangs the JVM is still identified.
// Also turns System.exit in a test into a SecurityException where the JDK still allows it.
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;

final class JforgeRunnerOutput {
    private static PrintStream out;
    static volatile boolean allowExit;

    private JforgeRunnerOutput() {}

    /** Opens the results file (appending) and blocks System.exit. */
    static void open(String path) throws IOException {
        out = new PrintStream(new FileOutputStream(path, true), false, "UTF-8");
        blockExit();
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
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) b.append('\t');
            b.append(esc(fields[i]));
        }
        b.append('\n');
        out.print(b);
        out.flush();
    }

    /** Writes DONE, closes the file and lets the runner exit. */
    static void done() {
        emit("DONE");
        out.close();
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
}
