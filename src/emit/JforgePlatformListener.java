// Reports JUnit Platform test events to jforge's results file (JforgeRunnerOutput.java). Used
// in two ways by the validator (src/emit/validate/):
// - registered by JforgeJUnit5Runner, which opens the results file and writes DONE itself;
// - auto-registered (META-INF/services) in a JVM that runs the JUnit console launcher
//   (org.junit.platform.console.ConsoleLauncher) unchanged: then the results file is named by
//   the system property jforge.results, opened when the test plan starts, and DONE is written
//   when it ends (which also lets the console launcher's System.exit through).
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

public final class JforgePlatformListener implements TestExecutionListener {
    private boolean ownsOutput;

    public JforgePlatformListener() {}

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

    @Override public void testPlanExecutionStarted(TestPlan plan) {
        String path = System.getProperty("jforge.results");
        if (path != null && !JforgeRunnerOutput.isOpen()) {
            try {
                JforgeRunnerOutput.open(path);
                ownsOutput = true;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    @Override public void testPlanExecutionFinished(TestPlan plan) {
        if (ownsOutput) {
            JforgeRunnerOutput.done();
            ownsOutput = false;
        }
    }

    @Override public void executionStarted(TestIdentifier id) {
        String[] w = where(id);
        if (id.isTest() && w != null) JforgeRunnerOutput.started(w[0], w[1]);
    }

    @Override public void executionFinished(TestIdentifier id, TestExecutionResult r) {
        String[] w = where(id);
        if (w == null) return;
        if (r.getStatus() == TestExecutionResult.Status.FAILED) {
            Throwable t = r.getThrowable().orElse(null);
            if (id.isTest()) {
                JforgeRunnerOutput.failed(w[0], w[1], t);
            } else {
                JforgeRunnerOutput.classFailed(w[0], t);
            }
        } else if (id.isTest()) {
            // SUCCESSFUL, or ABORTED by a failed assumption (counted as passing).
            JforgeRunnerOutput.passed(w[0], w[1]);
        }
    }
}
