package hostile;

import java.util.Collections;
import java.util.Iterator;

/**
 * Two ways to hang among ordinary and slow but legitimate methods: spin() computes forever
 * (a stopped thread must be made to take its ThreadDeath),
 * await() waits forever; nap() and work() take about 20 ms each and must not be cut.
 */
public class Stalls {
    private int total;
    private static volatile long sink;

    public Stalls() {}

    public void add(int x) { total += x; }

    public int total() { return total; }

    /**
     * Walks two billion copies of one string over and over, comparing each to the one
     * before: computes forever in compiled JDK code where, about one time in two, the
     * exception of Thread.stop stayed pending until something made the thread look.
     */
    public int spin() {
        int rounds = 0;
        while (rounds >= 0) {
            Iterator<String> it = Collections.nCopies(Integer.MAX_VALUE, "a").iterator();
            String prev = it.next();
            while (it.hasNext()) {
                String next = it.next();
                if (prev.compareTo(next) > 0) {
                    return -1;
                }
                prev = next;
            }
            rounds++;
        }
        return rounds;
    }

    public void await() throws InterruptedException {
        Object o = new Object();
        synchronized (o) {
            while (true) {
                o.wait();
            }
        }
    }

    /** Sleeps 20 ms (void and static: it only ever ends a sequence). */
    public static void nap() throws InterruptedException {
        Thread.sleep(20);
    }

    /** About 20 ms of arithmetic on a quiet machine (3 million rounds of a hash). */
    public static void work() {
        long h = sink;
        for (int i = 0; i < 3_000_000; i++) {
            h = h * 31 + i;
        }
        sink = h;
    }
}
