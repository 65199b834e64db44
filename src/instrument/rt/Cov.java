package jforge.rt;

/**
 * Coverage probe recorder for classes instrumented by jforge. Instrumented code calls
 * {@link #hit(int)} with a global probe id. One boolean per probe; races between threads
 * only ever set flags to true, so no locking is needed on the hot path. The array is sized
 * by the system property {@code jforge.cov.size} and grown under a lock if a larger id
 * shows up.
 */
public final class Cov {
    private static volatile boolean[] hits = new boolean[initialSize()];

    private Cov() {}

    private static int initialSize() {
        try {
            return Math.max(16, Integer.getInteger("jforge.cov.size", 1 << 16));
        } catch (SecurityException e) {
            return 1 << 16;
        }
    }

    /** Records that probe {@code id} ran. */
    public static void hit(int id) {
        boolean[] h = hits;
        if (id >= 0 && id < h.length) {
            h[id] = true;
        } else {
            grow(id);
        }
    }

    private static synchronized void grow(int id) {
        if (id < 0 || id >= Integer.MAX_VALUE - 8) {
            return;
        }
        boolean[] h = hits;
        if (id >= h.length) {
            int n = h.length;
            while (n <= id) {
                n = n > (Integer.MAX_VALUE >> 1) ? Integer.MAX_VALUE - 8 : n * 2;
            }
            boolean[] g = new boolean[n];
            System.arraycopy(h, 0, g, 0, h.length);
            hits = g;
            h = g;
        }
        h[id] = true;
    }

    /** Returns the probes hit since the last call (indexed by probe id) and starts afresh. */
    public static synchronized boolean[] snapshotAndReset() {
        boolean[] h = hits;
        hits = new boolean[h.length];
        return h;
    }
}
