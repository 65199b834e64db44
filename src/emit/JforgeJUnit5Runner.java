// Test runner used by jforge's validator (src/emit/validate.rs): runs JUnit 5 (Jupiter) test
// classes or single methods through the JUnit Platform Launcher API and writes one line per
// test to a results file, flushed as it goes, so that a test that kills or hangs the JVM is
// still identified (START without a result line).
//
// Usage: java JforgeJUnit5Runner <results-file> <Class | Class#method>...
// Lines: see JforgeJUnit4Runner.java (same format).
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

public final class JforgeJUnit5Runner {
    /** {class, method} of a test or container, or null when it has no class/method source. */
    static String[] where(TestIdentifier id) {
        TestSource s = id.getSource().orElse(null);
        if (s instanceof MethodSource) {
            MethodSource m = (MethodSource) s;
            return new String[] {m.getClassName(), m.getMethodName()};
        }
        if (s instanceof ClassSource) {
            return new String[] {((ClassSource) s).getClassName(), ""};
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        JforgeRunnerOutput.open(args[0]);
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            int h = a.indexOf('#');
            selectors.add(h < 0 ? selectClass(a) : selectMethod(a.substring(0, h), a.substring(h + 1)));
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, new TestExecutionListener() {
            @Override public void executionStarted(TestIdentifier id) {
                String[] w = where(id);
                if (id.isTest() && w != null) JforgeRunnerOutput.emit("START", w[0], w[1]);
            }
            @Override public void executionFinished(TestIdentifier id, TestExecutionResult r) {
                String[] w = where(id);
                if (w == null) return;
                if (r.getStatus() == TestExecutionResult.Status.FAILED) {
                    Throwable t = r.getThrowable().orElse(null);
                    JforgeRunnerOutput.emit("FAIL", w[0], id.isTest() ? w[1] : "", t == null ? "" : t.getClass().getName(),
                        t == null ? "" : String.valueOf(t.getMessage()));
                } else if (id.isTest()) {
                    // SUCCESSFUL, or ABORTED by a failed assumption (counted as passing).
                    JforgeRunnerOutput.emit("PASS", w[0], w[1]);
                }
            }
        });
        JforgeRunnerOutput.done();
        Runtime.getRuntime().halt(0);
    }
}
