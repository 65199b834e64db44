package vsub;

/** Subject of tests/validate_e2e.rs: behaviours that pass jforge's first run but not a user's build. */
public class Registry {
    private static int value;

    private Registry() {}

    /** Static state a later test may come to depend on. */
    public static void set(int v) {
        value = v;
    }

    public static int get() {
        return value;
    }

    /** Keeps {@code mb} MiB reachable until it returns: needs a heap larger than that. */
    public static int hog(int mb) {
        byte[][] keep = new byte[mb][];
        for (int i = 0; i < mb; i++) {
            keep[i] = new byte[1 << 20];
        }
        return keep.length;
    }

    /** Allocates {@code mb} MiB of garbage, one MiB at a time: runs in any heap. */
    public static int churn(int mb) {
        int n = 0;
        for (int i = 0; i < mb; i++) {
            byte[] b = new byte[1 << 20];
            n += b.length >> 20;
        }
        return n;
    }

    public static int slow(int ms) throws InterruptedException {
        Thread.sleep(ms);
        return ms;
    }

    /** Called by one test only. */
    public static int onlyHere(int x) {
        if (x > 0) {
            return 2 * x + 1;
        }
        return -x;
    }

    public static int twice(int x) {
        return 2 * x;
    }

    /** Whether two new objects have different identity hash codes (true but for a 2^-32 chance). */
    public static boolean distinctIdentityHashes() {
        return System.identityHashCode(new Object()) != System.identityHashCode(new Object());
    }

    /**
     * Distinct identity hashes and no console launcher: false in two of the check's runs (the
     * one with a single identity hash and the console launcher's).
     */
    public static boolean ordinaryJvm() {
        return distinctIdentityHashes() && !underConsoleLauncher();
    }

    /** Whether the JUnit Platform console launcher is running this thread. */
    public static boolean underConsoleLauncher() {
        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
            if (e.getClassName().startsWith("org.junit.platform.console.")) {
                return true;
            }
        }
        return false;
    }
}
