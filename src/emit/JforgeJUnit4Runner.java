// Test runner used by jforge's validator (src/emit/validate.rs): runs JUnit 4 test classes or
// single methods and writes one line per test to a results file, flushed as it goes, so that a
// test that kills or hangs the JVM is still identified (START without a result line).
//
// Usage: java JforgeJUnit4Runner <results-file> <Class | Class#method>...
// Lines (tab-separated, fields escaped: backslash, tab, newline, CR):
//   START  class  method
//   PASS   class  method
//   FAIL   class  method  exception-class  message      (method may be empty: class-level)
//   DONE
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

public final class JforgeJUnit4Runner {
    private static PrintStream out;
    static volatile boolean allowExit;

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

    /** Turn System.exit in a test into a SecurityException (where the JDK still allows it). */
    @SuppressWarnings({"removal", "deprecation"})
    static void blockExit() {
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

    public static void main(String[] args) throws Exception {
        out = new PrintStream(new FileOutputStream(args[0], true), false, "UTF-8");
        blockExit();
        final Map<Description, Failure> failures = new HashMap<>();
        JUnitCore core = new JUnitCore();
        core.addListener(new RunListener() {
            @Override public void testStarted(Description d) {
                emit("START", d.getClassName(), d.getMethodName());
            }
            @Override public void testFailure(Failure f) {
                Description d = f.getDescription();
                if (d.getMethodName() == null) {
                    Throwable t = f.getException();
                    emit("FAIL", d.getClassName(), "", t.getClass().getName(), String.valueOf(t.getMessage()));
                } else {
                    failures.put(d, f);
                }
            }
            @Override public void testFinished(Description d) {
                Failure f = failures.remove(d);
                if (f == null) {
                    emit("PASS", d.getClassName(), d.getMethodName());
                } else {
                    Throwable t = f.getException();
                    emit("FAIL", d.getClassName(), d.getMethodName(), t.getClass().getName(),
                        String.valueOf(t.getMessage()));
                }
            }
        });
        ClassLoader loader = JforgeJUnit4Runner.class.getClassLoader();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            int h = a.indexOf('#');
            String cls = h < 0 ? a : a.substring(0, h);
            Class<?> c;
            try {
                c = Class.forName(cls, false, loader);
            } catch (Throwable t) {
                emit("FAIL", cls, "", t.getClass().getName(), String.valueOf(t.getMessage()));
                continue;
            }
            core.run(h < 0 ? Request.aClass(c) : Request.method(c, a.substring(h + 1)));
        }
        emit("DONE");
        out.close();
        allowExit = true;
        Runtime.getRuntime().halt(0);
    }
}
