import java.io.File;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.tools.ExecFileLoader;

/**
 * Prints JaCoCo's line and branch counters per class: "CLASS lines_covered lines_total
 * branches_covered branches_total". Arguments: EXEC_FILE JAR_OR_DIR CLASS_PREFIX [CLASS
 * whose line statuses, and its nested classes', to print].
 */
public final class JacocoTotals {
    public static void main(String[] a) throws Exception {
        ExecFileLoader l = new ExecFileLoader();
        l.load(new File(a[0]));
        CoverageBuilder b = new CoverageBuilder();
        new Analyzer(l.getExecutionDataStore(), b).analyzeAll(new File(a[1]));
        for (IClassCoverage c : b.getClasses()) {
            String n = c.getName().replace('/', '.');
            if (!n.startsWith(a[2])) {
                continue;
            }
            ICounter li = c.getLineCounter();
            ICounter br = c.getBranchCounter();
            System.out.println(n + " " + li.getCoveredCount() + " " + li.getTotalCount() + " "
                    + br.getCoveredCount() + " " + br.getTotalCount());
            if (a.length > 3 && (n.equals(a[3]) || n.startsWith(a[3] + "$"))) {
                // line-level detail of one class and its nested classes: "line CLASS NR
                // STATUS" (JaCoCo ICounter status)
                for (int i = c.getFirstLine(); i <= c.getLastLine(); i++) {
                    int st = c.getLine(i).getStatus();
                    if (st != ICounter.EMPTY) {
                        System.out.println("line " + n + " " + i + " " + st);
                    }
                }
            }
        }
    }
}
