package jforge.rt;

/**
 * Coverage probe recorder for classes instrumented by jforge. Instrumented code calls
 * {@link #hit(int)} with a global probe id. One boolean per probe; races between threads
 * only ever set flags to true, so the hot path takes no lock. The array starts at 64 Ki
 * probes and grows under a lock when a larger id shows up; {@link #ensureCapacity(int)}
 * presizes it.
 *
 * <p>A hit also marks the probe's block of 64 probes, so that a drain scans the block marks
 * and the marked blocks (the probes of a method are consecutive ids), not every probe of the
 * classes under test: a worker drains twice per sequence, and over a package of tens of
 * thousands of probes the full scans were the worker's largest cost per sequence after the
 * calls themselves (19% of its samples over guava collect). A list of first hits, sorted at
 * the drain, cost more than the scan once a sequence hit a few thousand probes.
 *
 * <p>The static initialiser calls nothing but an array allocation: when JDK classes are
 * instrumented (patched into java.base) probes run during VM startup, before system
 * properties or the Integer cache exist.
 */
public final class Cov {
    private static volatile boolean[] hits = new boolean[1 << 16];
    /**
     * One flag per block of 64 probes, for the first {@code 1 << 24} probes (256 KiB, never
     * replaced, so the hot path reads a constant): set with every hit of a probe of the block
     * (a second store and no branch: testing the probe's flag first and marking only first
     * hits, with a call on the rare side, was no faster in A/B runs), cleared by the drain
     * that scans the block. No lock: racing threads only set flags, and a block is cleared
     * before it is scanned, so a hit the scan misses keeps its block marked for the next
     * drain. A probe id past it (no class path has that many) turns the blocks off: every
     * drain then scans. (An array that grew with the probe array, read afresh on each hit,
     * sent hits of the workers' hung loops into the lock of the slow path in a JFR profile;
     * a fixed array leaves nothing to grow.)
     */
    private static final boolean[] DIRTY = new boolean[1 << 18];

    private Cov() {}

    /** Records that probe {@code id} ran. */
    public static void hit(int id) {
        boolean[] h = hits;
        if (h != null && id >= 0 && id < h.length) {
            h[id] = true;
            boolean[] d = DIRTY;
            int b = id >>> 6;
            if (d != null && b < d.length) {
                d[b] = true;
            } else {
                tooMany();
            }
        } else {
            grow(id, true);
        }
    }

    /**
     * The array whose hits are marked in {@link #DIRTY}: the live array, followed through its
     * copies (growth, resume). Every flag set in it lies in a block marked dirty (the
     * invariant drain relies on). Hits into another array (the scratch array while paused)
     * mark blocks too, which only costs the next drain a scan of those blocks; a drain of
     * such an array scans it as before. Null once a probe id ran past the block flags (or
     * before this class was initialised): every drain then scans.
     */
    private static boolean[] listed = hits;

    /** A probe id past the block flags, or a probe before initialisation: drains scan. */
    private static synchronized void tooMany() {
        listed = null;
    }

    /** Makes room for probe ids below {@code n}. */
    public static void ensureCapacity(int n) {
        if (n > 0) {
            grow(n - 1, false);
        }
    }

    private static synchronized void grow(int id, boolean set) {
        if (id < 0 || id >= Integer.MAX_VALUE - 8) {
            return;
        }
        boolean[] h = hits;
        if (h == null) {
            // Only reachable while this class is still being initialised.
            h = new boolean[1 << 16];
            hits = h;
        }
        if (id >= h.length) {
            int n = h.length;
            while (n <= id) {
                n = n > (Integer.MAX_VALUE >> 1) ? Integer.MAX_VALUE - 8 : n * 2;
            }
            boolean[] g = new boolean[n];
            System.arraycopy(h, 0, g, 0, h.length);
            if (listed == h) {
                listed = g;
            }
            hits = g;
            h = g;
        }
        if (set) {
            h[id] = true;
            if (DIRTY != null && (id >>> 6) < DIRTY.length) {
                DIRTY[id >>> 6] = true;
            } else {
                listed = null;
            }
        }
    }

    /** Where probes go while recording is paused (never read). */
    private static boolean[] scratch = new boolean[1 << 16];

    /**
     * Pauses recording: until {@link #resume}, probes set flags in a scratch array. The
     * worker pauses around its own calls into the code under test (the hashCode of a
     * fingerprint, contract checks), so that a sequence's coverage is what its statements
     * ran, which is what a test written from it covers. Returns the live array for
     * {@code resume}.
     */
    public static synchronized boolean[] pause() {
        boolean[] h = hits;
        if (h == null) {
            h = new boolean[1 << 16];
        }
        if (scratch.length < h.length) {
            scratch = new boolean[h.length];
        }
        hits = scratch;
        return h;
    }

    /** Resumes recording into {@code live}, the array {@link #pause} returned. */
    public static synchronized void resume(boolean[] live) {
        boolean[] s = hits;
        if (s != null && s != live) {
            scratch = s;
        }
        if (live != null && s != null && live.length < s.length) {
            boolean[] g = new boolean[s.length];
            System.arraycopy(live, 0, g, 0, live.length);
            if (listed == live) {
                listed = g;
            }
            live = g;
        }
        hits = live;
    }

    /** Returns the probes hit since the last call (indexed by probe id) and starts afresh. */
    public static synchronized boolean[] snapshotAndReset() {
        boolean[] h = hits;
        if (h == null) {
            h = new boolean[1 << 16];
        }
        hits = new boolean[h.length];
        listed = hits;
        java.util.Arrays.fill(DIRTY, false);
        return h;
    }

    /**
     * Returns the ids of the probes below {@code n} hit since the last call, in increasing
     * order, and clears them. Cost: the first hits since the last call (sorted), not a scan
     * of the {@code n} flags; ids at or above {@code n} stay set and listed, as before.
     */
    public static synchronized int[] drain(int n) {
        boolean[] h = hits;
        if (h == null) {
            return new int[0];
        }
        int m = Math.min(n, h.length);
        boolean[] d = DIRTY;
        if (h != listed || d == null) {
            return scan(h, m);
        }
        int[] ids = new int[64];
        int c = 0;
        int nb = Math.min(d.length, (m + 63) >>> 6);
        for (int b = 0; b < nb; b++) {
            if (!d[b]) {
                continue;
            }
            int lo = b << 6;
            int hi = lo + 64;
            if (hi <= m) {
                d[b] = false; // a block reaching past m keeps its mark for the ids left set
            } else {
                hi = m;
            }
            for (int i = lo; i < hi; i++) {
                if (h[i]) {
                    h[i] = false;
                    if (c == ids.length) {
                        ids = java.util.Arrays.copyOf(ids, c * 2);
                    }
                    ids[c++] = i;
                }
            }
        }
        return c == ids.length ? ids : java.util.Arrays.copyOf(ids, c);
    }

    /** Drain of an array without block marks (the scratch array while paused): a scan of {@code m} flags. */
    private static int[] scan(boolean[] h, int m) {
        int c = 0;
        for (int i = 0; i < m; i++) {
            if (h[i]) {
                c++;
            }
        }
        int[] ids = new int[c];
        int k = 0;
        for (int i = 0; i < m && k < c; i++) {
            if (h[i]) {
                h[i] = false;
                ids[k++] = i;
            }
        }
        return ids;
    }

    // ---------------------------------------------------------------- comparison logging

    private static final int MAX_COMPARED = 64;
    private static final int MAX_COMPARED_LENGTH = 100;
    private static String[] compared = new String[MAX_COMPARED];
    private static int ncompared;

    /**
     * Replaces {@code a.equals(b)} (a String receiver) in instrumented code, string
     * {@code switch} included: records the operands, then compares. Same stack effect and the
     * same NullPointerException for a null receiver.
     */
    public static boolean strEq(String a, Object b) {
        boolean r = a.equals(b);
        if (!r && b instanceof String) {
            logCompared(a, (String) b);
        }
        return r;
    }

    private static synchronized void logCompared(String a, String b) {
        if (ncompared + 2 > MAX_COMPARED) {
            return;
        }
        if (a.length() <= MAX_COMPARED_LENGTH) {
            compared[ncompared++] = a;
        }
        if (b.length() <= MAX_COMPARED_LENGTH) {
            compared[ncompared++] = b;
        }
    }

    // Numbers: `if_icmp*` and `lcmp` in instrumented code call cmpI / lcmp with a site id (the
    // probe id of the taken edge of the jump). Each site is logged at most SITE_LIMIT times per
    // sequence, so a loop test like `i < n` does not fill the log before the interesting
    // comparisons; no lock on the hot path (races may lose a value, never throw).

    private static final int MAX_NUMS = 64;
    private static final int SITE_LIMIT = 2;
    private static long[] nums = new long[MAX_NUMS];
    private static int nnums;
    private static byte[] siteCount = new byte[1 << 16];
    private static int[] sites = new int[MAX_NUMS];
    private static int nsites;

    /** Called before {@code if_icmp*}: records unequal operands (the jump itself follows). */
    public static void cmpI(int a, int b, int site) {
        if (a != b) {
            logNums(a, b, site);
        }
    }

    /** Replaces {@code lcmp}: records unequal operands and returns the same result. */
    public static int lcmp(long a, long b, int site) {
        if (a != b) {
            logNums(a, b, site);
            return a < b ? -1 : 1;
        }
        return 0;
    }

    private static void logNums(long a, long b, int site) {
        int n = nnums;
        long[] v = nums;
        if (n + 2 > v.length) {
            return;
        }
        byte[] sc = siteCount;
        if (site >= 0 && site < sc.length) {
            int c = sc[site];
            if (c >= SITE_LIMIT) {
                return;
            }
            if (c == 0) {
                int k = nsites;
                int[] s = sites;
                if (k >= s.length) {
                    return;
                }
                s[k] = site;
                nsites = k + 1;
            }
            sc[site] = (byte) (c + 1);
        } else if (site >= 0) {
            growSites(site);
        }
        v[n] = a;
        v[n + 1] = b;
        nnums = n + 2;
    }

    private static synchronized void growSites(int site) {
        byte[] sc = siteCount;
        if (site < sc.length || site >= Integer.MAX_VALUE - 8) {
            return;
        }
        int n = sc.length;
        while (n <= site) {
            n = n > (Integer.MAX_VALUE >> 1) ? Integer.MAX_VALUE - 8 : n * 2;
        }
        byte[] g = new byte[n];
        System.arraycopy(sc, 0, g, 0, sc.length);
        siteCount = g;
    }

    /** The int and long operands compared (and found unequal) since the last call, in pairs. */
    public static synchronized long[] drainNums() {
        int n = Math.min(nnums, nums.length);
        long[] out = new long[n];
        System.arraycopy(nums, 0, out, 0, n);
        nnums = 0;
        byte[] sc = siteCount;
        int k = Math.min(nsites, sites.length);
        for (int i = 0; i < k; i++) {
            int s = sites[i];
            if (s >= 0 && s < sc.length) {
                sc[s] = 0;
            }
        }
        nsites = 0;
        return out;
    }

    /** The String operands compared (and found unequal) since the last call. */
    public static synchronized String[] drainCompared() {
        String[] out = new String[ncompared];
        System.arraycopy(compared, 0, out, 0, ncompared);
        for (int i = 0; i < ncompared; i++) {
            compared[i] = null;
        }
        ncompared = 0;
        return out;
    }
}
