// Test runner used by jforge's validator (src/emit/validate/): runs JUnit 5 (Jupiter) tests
// through the JUnit Platform Launcher API in exactly the order of a list and reports them
// through JforgePlatformListener to a results file (see JforgeRunnerOutput.java), flushed as it
// goes, so that a test that kills or hangs the JVM is still identified (START without a result).
//
// Usage: java JforgeJUnit5Runner <results-file> <order-file>
// The order file has one "class<TAB>method" per line. The listed classes are selected whole
// (cheaper to discover than a thousand method selectors) and a post-discovery filter excludes
// the methods that are not listed. The same filter imposes the order (so it overrides
// @TestMethodOrder, and the validator can run the suite forward and in reverse): it sorts the
// children of every container above a test by list position, through
// TestDescriptor.removeChild/addChild. Jupiter runs children in that order; engines that run
// tests their own way (Vintage) are not reordered.
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

public final class JforgeJUnit5Runner {
    /**
     * Keeps the listed methods only and sorts siblings by list position (tests by their own,
     * classes by their first test's).
     */
    static final class Order implements PostDiscoveryFilter {
        final Map<String, Integer> rank = new HashMap<>();
        final Set<TestDescriptor> sorted = Collections.newSetFromMap(new IdentityHashMap<>());

        int pos(TestDescriptor d) {
            TestSource s = d.getSource().orElse(null);
            Integer p = null;
            if (s instanceof MethodSource) {
                MethodSource m = (MethodSource) s;
                p = rank.get(m.getClassName() + "#" + m.getMethodName());
            } else if (s instanceof ClassSource) {
                p = rank.get(((ClassSource) s).getClassName());
            }
            return p == null ? Integer.MAX_VALUE : p;
        }

        @Override public FilterResult apply(TestDescriptor d) {
            for (TestDescriptor p = d.getParent().orElse(null); p != null; p = p.getParent().orElse(null)) {
                if (!sorted.add(p)) break;
                List<TestDescriptor> kids = new ArrayList<>(p.getChildren());
                kids.sort((a, b) -> Integer.compare(pos(a), pos(b)));
                for (TestDescriptor k : kids) p.removeChild(k);
                for (TestDescriptor k : kids) p.addChild(k);
            }
            boolean unlisted = d.getSource().orElse(null) instanceof MethodSource && pos(d) == Integer.MAX_VALUE;
            return unlisted ? FilterResult.excluded("jforge: not listed") : FilterResult.included("jforge: listed");
        }
    }

    public static void main(String[] args) throws Exception {
        JforgeRunnerOutput.open(args[0]);
        Order order = new Order();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String[] t : JforgeRunnerOutput.readOrder(args[1])) {
            if (!order.rank.containsKey(t[0])) {
                order.rank.put(t[0], order.rank.size());
                selectors.add(selectClass(t[0]));
            }
            order.rank.put(t[0] + "#" + t[1], order.rank.size());
        }
        LauncherDiscoveryRequest request =
            LauncherDiscoveryRequestBuilder.request().selectors(selectors).filters(order).build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, new JforgePlatformListener());
        JforgeRunnerOutput.done();
        Runtime.getRuntime().halt(0);
    }
}
