import java.util.Arrays;
import java.util.Random;

/**
 * Checks jforge.rt.Cov's drain, which scans only the blocks of 64 probes that hits marked
 * instead of every probe, against a reference that keeps one flag per probe and scans (the drain's definition: the
 * ids below n hit into the current array since its last drain, increasing). A seeded random
 * schedule of hits (ids below and above the initial 64 Ki, so the array grows), pauses and
 * resumes (hits go to the scratch array), drains with two limits (ids at or above the smaller
 * one stay for a later drain), drains while paused, presizing and snapshots.
 *
 * <p>Prints "MISMATCH ..." and exits 1 at the first difference, else
 * "ok drains=N nonempty=N paused=N grown=N ids=N".
 */
public class CovDrainCheck {
    /** The reference: flags per array, drained by a scan. */
    static final class Ref {
        boolean[] hits = new boolean[1 << 16];
        boolean[] scratch = new boolean[1 << 16];

        void hit(int id) {
            if (id >= hits.length) {
                hits = Arrays.copyOf(hits, Math.max(hits.length * 2, Integer.highestOneBit(id) * 2));
            }
            hits[id] = true;
        }

        boolean[] pause() {
            boolean[] live = hits;
            if (scratch.length < live.length) {
                scratch = new boolean[live.length];
            }
            hits = scratch;
            return live;
        }

        void resume(boolean[] live) {
            boolean[] s = hits;
            if (s != live) {
                scratch = s;
            }
            if (live.length < s.length) {
                live = Arrays.copyOf(live, s.length);
            }
            hits = live;
        }

        int[] drain(int n) {
            int m = Math.min(n, hits.length);
            int c = 0;
            int[] ids = new int[m];
            for (int i = 0; i < m; i++) {
                if (hits[i]) {
                    hits[i] = false;
                    ids[c++] = i;
                }
            }
            return Arrays.copyOf(ids, c);
        }

        void ensureCapacity(int n) {
            if (n > hits.length) {
                int len = hits.length;
                while (len < n) {
                    len *= 2;
                }
                hits = Arrays.copyOf(hits, len);
            }
        }

        boolean[] snapshotAndReset() {
            boolean[] h = hits;
            hits = new boolean[h.length];
            return h;
        }
    }

    public static void main(String[] a) {
        Random r = new Random(Long.parseLong(a[0]));
        int steps = Integer.parseInt(a[1]);
        Ref ref = new Ref();
        boolean[] covLive = null;
        boolean[] refLive = null;
        int drains = 0, nonempty = 0, paused = 0, grown = 0;
        long ids = 0;
        for (int step = 0; step < steps; step++) {
            int k = r.nextInt(1000);
            if (k < 900) {
                int id = r.nextInt(3) > 0 ? r.nextInt(400) : r.nextInt(200_000);
                jforge.rt.Cov.hit(id);
                ref.hit(id);
            } else if (k < 930 && covLive == null) {
                covLive = jforge.rt.Cov.pause();
                refLive = ref.pause();
            } else if (k < 960 && covLive != null) {
                jforge.rt.Cov.resume(covLive);
                ref.resume(refLive);
                covLive = refLive = null;
            } else if (k == 960 && r.nextInt(40) == 0) {
                boolean[] x = jforge.rt.Cov.snapshotAndReset();
                boolean[] y = ref.snapshotAndReset();
                if (!Arrays.equals(x, y)) {
                    fail(step, "snapshot", "", "");
                }
            } else if (k == 961 && r.nextInt(40) == 0) {
                int n = r.nextInt(600_000);
                jforge.rt.Cov.ensureCapacity(n);
                ref.ensureCapacity(n);
                grown++;
            } else if (k >= 962) {
                int n = r.nextBoolean() ? 150_000 : 1 << 20;
                int[] x = jforge.rt.Cov.drain(n);
                int[] y = ref.drain(n);
                if (!Arrays.equals(x, y)) {
                    fail(step, "drain(" + n + ")" + (covLive != null ? " paused" : ""),
                            Arrays.toString(x), Arrays.toString(y));
                }
                drains++;
                nonempty += x.length > 0 ? 1 : 0;
                paused += covLive != null ? 1 : 0;
                ids += x.length;
            }
        }
        System.out.println("ok drains=" + drains + " nonempty=" + nonempty + " paused=" + paused
                + " grown=" + grown + " ids=" + ids);
    }

    static void fail(int step, String what, String got, String want) {
        System.out.println("MISMATCH at step " + step + " " + what + ": Cov " + got + ", reference " + want);
        System.exit(1);
    }
}
