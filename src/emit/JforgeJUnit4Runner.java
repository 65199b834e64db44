// Test runner used by jforge's validator (src/emit/validate/): runs JUnit 4 tests through
// JUnitCore in exactly the order of a list and writes one line per test to a results file (see
// JforgeRunnerOutput.java), flushed as it goes, so that a test that kills or hangs the JVM is
// still identified (START without a result line).
//
// Usage: java JforgeJUnit4Runner <results-file> <order-file>
// The order file has one "class<TAB>method" per line. Consecutive lines of one class run as one
// JUnit request (so @BeforeClass/@AfterClass run once per group) of the listed methods in list
// order, whatever @FixMethodOrder says: the validator runs the suite forward and in reverse.
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.RunWith;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runners.BlockJUnit4ClassRunner;
import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;

public final class JforgeJUnit4Runner {
    public static void main(String[] args) throws Exception {
        JforgeRunnerOutput.open(args[0]);
        List<String[]> order = JforgeRunnerOutput.readOrder(args[1]);
        final Map<Description, Failure> failures = new HashMap<>();
        JUnitCore core = new JUnitCore();
        core.addListener(new RunListener() {
            @Override public void testStarted(Description d) {
                JforgeRunnerOutput.started(d.getClassName(), d.getMethodName());
            }
            @Override public void testFailure(Failure f) {
                Description d = f.getDescription();
                if (d.getMethodName() == null) {
                    JforgeRunnerOutput.classFailed(d.getClassName(), f.getException());
                } else {
                    failures.put(d, f);
                }
            }
            @Override public void testFinished(Description d) {
                Failure f = failures.remove(d);
                if (f == null) {
                    JforgeRunnerOutput.passed(d.getClassName(), d.getMethodName());
                } else {
                    JforgeRunnerOutput.failed(d.getClassName(), d.getMethodName(), f.getException());
                }
            }
        });
        ClassLoader loader = JforgeJUnit4Runner.class.getClassLoader();
        int i = 0;
        while (i < order.size()) {
            String cls = order.get(i)[0];
            final Map<String, Integer> rank = new HashMap<>();
            while (i < order.size() && order.get(i)[0].equals(cls)) {
                rank.put(order.get(i)[1], rank.size());
                i++;
            }
            Class<?> c;
            try {
                c = Class.forName(cls, false, loader);
            } catch (Throwable t) {
                JforgeRunnerOutput.classFailed(cls, t);
                continue;
            }
            core.run(request(c, rank));
        }
        JforgeRunnerOutput.done();
        Runtime.getRuntime().halt(0);
    }

    /**
     * The listed methods of {@code c} in list order. JUnit's own sorting (Request.sortWith) is
     * a no-op on classes annotated @FixMethodOrder, which generated tests are, so the order
     * comes from a BlockJUnit4ClassRunner whose children are the listed methods in list order;
     * a class with its own @RunWith keeps its runner (filtered, in the runner's order).
     */
    static Request request(Class<?> c, final Map<String, Integer> rank) {
        if (c.getAnnotation(RunWith.class) == null) {
            try {
                return Request.runner(new BlockJUnit4ClassRunner(c) {
                    @Override protected List<FrameworkMethod> getChildren() {
                        List<FrameworkMethod> v = new ArrayList<>();
                        for (FrameworkMethod m : super.getChildren()) {
                            if (rank.containsKey(m.getName())) v.add(m);
                        }
                        v.sort((a, b) -> Integer.compare(rank.get(a.getName()), rank.get(b.getName())));
                        return v;
                    }
                });
            } catch (InitializationError e) {
                // Not a plain JUnit 4 class: JUnit's default request reports why.
            }
        }
        return Request.aClass(c).filterWith(new Filter() {
            @Override public boolean shouldRun(Description d) {
                String m = d.getMethodName();
                if (m != null) return rank.containsKey(m);
                for (Description child : d.getChildren()) {
                    if (shouldRun(child)) return true;
                }
                return d.getChildren().isEmpty();
            }
            @Override public String describe() {
                return "jforge: the listed methods";
            }
        });
    }
}
