import java.util.TreeMap;

/** Exercises java.util.TreeMap (instrumented, patched into java.base) and prints probe hits. */
public class JdkApp {
    public static void main(String[] a) {
        jforge.rt.Cov.snapshotAndReset();
        TreeMap<String, Integer> t = new TreeMap<>();
        for (int i = 0; i < 50; i++) {
            t.put("k" + (i * 7 % 13), i);
        }
        boolean[] h = jforge.rt.Cov.snapshotAndReset();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < h.length; i++) {
            if (h[i]) {
                sb.append(sb.length() == 0 ? "" : ",").append(i);
            }
        }
        System.out.println(t.size() + " " + t.firstKey());
        System.out.println("HITS " + sb);
    }
}
