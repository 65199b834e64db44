package jforge.worker;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static jforge.worker.Proto.M_LEAKED_THREADS;

/**
 * What a sequence leaves behind once it ends. Why it matters: sequences must be independent,
 * and a non-daemon thread started by one keeps running (and mutating shared state) while the
 * next ones run, and would keep the JVM of the user's written tests alive. A sequence that
 * leaves one (after a short grace period to finish) is blamed on its last statement and the
 * worker halts (marker M_LEAKED_THREADS), as for a crash.
 */
final class Leaks {
    private final Progress progress;
    private final Set<Thread> initialThreads = new HashSet<>();
    private int threadBaseline;

    Leaks(Progress progress) {
        this.progress = progress;
    }

    /** Takes the threads running before any sequence (the worker's own) as the baseline. */
    void baseline() {
        for (Thread t : allThreads()) {
            if (!t.isDaemon()) {
                initialThreads.add(t);
            }
        }
        threadBaseline = Thread.activeCount();
    }

    static Thread[] allThreads() {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) {
            g = g.getParent();
        }
        Thread[] ts = new Thread[g.activeCount() * 2 + 16];
        int k = g.enumerate(ts, true);
        return Arrays.copyOf(ts, k);
    }

    /** After a sequence (or bulk request): halts, blaming statement blame, on a leak. */
    void check(int blame) {
        checkThreads(blame);
    }

    private void checkThreads(int blame) {
        if (Thread.activeCount() <= threadBaseline) {
            return;
        }
        for (Thread t : allThreads()) {
            if (t == Thread.currentThread() || t.isDaemon() || initialThreads.contains(t) || !t.isAlive()) {
                continue;
            }
            try {
                t.join(200);
            } catch (InterruptedException e) {
                // ignore
            }
            if (t.isAlive() && !t.isDaemon()) {
                progress.crash(M_LEAKED_THREADS, blame);
            }
        }
        threadBaseline = Thread.activeCount();
    }
}
