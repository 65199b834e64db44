package gs;

import java.util.HashMap;
import java.util.Map;

/**
 * Static settings consumed by the next make(), as commons-cli's OptionBuilder keeps them: a
 * test that ends after verbose() or named(..) without make() leaves them for every test its
 * build runs after it in the same JVM. cached(..) fills a static cache when it finds it empty:
 * that is no setting left behind.
 */
public final class Flags {
    private static boolean verbose;
    private static String name;
    private static int level = 1;
    private static Map<String, String> cache;

    private Flags() {}

    public static void verbose() {
        verbose = true;
    }

    public static void named(String n) {
        name = n;
    }

    public static void level(int l) {
        level = l;
    }

    public static String make() {
        try {
            return (verbose ? "loud " : "") + name + "@" + level;
        } finally {
            reset();
        }
    }

    public static void reset() {
        verbose = false;
        name = null;
        level = 1;
    }

    public static String cached(String k) {
        if (cache == null) {
            cache = new HashMap<>();
        }
        return cache.computeIfAbsent(k, x -> x + "!");
    }
}
