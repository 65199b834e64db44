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
import java.util.HashMap;
import java.util.Map;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

public final class JforgeJUnit4Runner {
    public static void main(String[] args) throws Exception {
        JforgeRunnerOutput.open(args[0]);
        final Map<Description, Failure> failures = new HashMap<>();
        JUnitCore core = new JUnitCore();
        core.addListener(new RunListener() {
            @Override public void testStarted(Description d) {
                JforgeRunnerOutput.emit("START", d.getClassName(), d.getMethodName());
            }
            @Override public void testFailure(Failure f) {
                Description d = f.getDescription();
                if (d.getMethodName() == null) {
                    Throwable t = f.getException();
                    JforgeRunnerOutput.emit("FAIL", d.getClassName(), "", t.getClass().getName(), String.valueOf(t.getMessage()));
                } else {
                    failures.put(d, f);
                }
            }
            @Override public void testFinished(Description d) {
                Failure f = failures.remove(d);
                if (f == null) {
                    JforgeRunnerOutput.emit("PASS", d.getClassName(), d.getMethodName());
                } else {
                    Throwable t = f.getException();
                    JforgeRunnerOutput.emit("FAIL", d.getClassName(), d.getMethodName(), t.getClass().getName(),
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
                JforgeRunnerOutput.emit("FAIL", cls, "", t.getClass().getName(), String.valueOf(t.getMessage()));
                continue;
            }
            core.run(h < 0 ? Request.aClass(c) : Request.method(c, a.substring(h + 1)));
        }
        JforgeRunnerOutput.done();
        Runtime.getRuntime().halt(0);
    }
}
