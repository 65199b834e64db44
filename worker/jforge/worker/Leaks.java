package jforge.worker;

import java.io.File;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static jforge.worker.Proto.M_LEAKED_PROCESSES;
import static jforge.worker.Proto.M_LEAKED_THREADS;
import static jforge.worker.Proto.M_WROTE_FILES;

/**
 * What a sequence leaves behind once it ends: non-daemon threads and processes. Why it
 * matters: sequences must be independent, and a thread started by one keeps running (and
 * mutating shared state) while the next ones run, and would keep the JVM of the user's
 * written tests alive; a process started by one outlives the worker, and users saw thousands
 * of them (`new ProcessBuilder("sleep", "347").start()`) left after a run. A sequence that
 * leaves either (after a grace period of {@link #GRACE_MS} to finish) is blamed on its last
 * statement and the worker halts (markers M_LEAKED_THREADS, M_LEAKED_PROCESSES), as for a
 * crash; the processes are killed first and their number goes with the marker. jforge also
 * kills the worker's whole process group when the worker goes, for what escapes this (a
 * grandchild whose parent exited is no one's descendant any more).
 *
 * <p>Files: jforge starts the worker in an empty folder of its own, so that what the code
 * under test writes to a relative path ({@code new PrintWriter("only")}) lands there and not
 * in the user's project; a test that did that would write into the project whenever the
 * build runs it. A sequence that leaves files there is blamed like a leak (M_WROTE_FILES,
 * the files removed first). The test after each sequence is one stat of the folder (its
 * modification time moves when an entry is added or removed), listed only when it moved.
 */
final class Leaks {
    /** How long what a sequence started may take to end on its own. */
    static final long GRACE_MS = 200;

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
        checkProcesses(blame);
        checkFiles(blame);
    }

    /** The folder the worker runs in (empty when it started; see the class documentation). */
    private static final File CWD = new File(System.getProperty("user.dir")).getAbsoluteFile();
    private long cwdStamp = CWD.lastModified();

    private void checkFiles(int blame) {
        long stamp = CWD.lastModified();
        if (stamp == cwdStamp) {
            return;
        }
        cwdStamp = stamp;
        File[] left = CWD.listFiles();
        if (left == null || left.length == 0) {
            return;
        }
        for (File f : left) {
            remove(f);
        }
        progress.crash(M_WROTE_FILES, blame, left.length);
    }

    private static void remove(File f) {
        File[] inner = f.isDirectory() && !java.nio.file.Files.isSymbolicLink(f.toPath()) ? f.listFiles() : null;
        if (inner != null) {
            for (File g : inner) {
                remove(g);
            }
        }
        f.delete();
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
                t.join(GRACE_MS);
            } catch (InterruptedException e) {
                // ignore
            }
            if (t.isAlive() && !t.isDaemon()) {
                progress.crash(M_LEAKED_THREADS, blame);
            }
        }
        threadBaseline = Thread.activeCount();
    }

    /**
     * The JDK's table of the child processes it is waiting for (the private static field
     * java.lang.ProcessHandleImpl.completions; java.lang is opened to the worker), or null. An
     * entry is added when a process starts and removed once it has ended and was reaped, so an
     * empty table means no child process is running: the cheap test made after every sequence.
     */
    private static final Map<?, ?> PENDING = pendingChildren();

    private static Map<?, ?> pendingChildren() {
        try {
            Field f = Class.forName("java.lang.ProcessHandleImpl").getDeclaredField("completions");
            f.setAccessible(true);
            return f.get(null) instanceof Map<?, ?> m ? m : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Whether this JVM may have child processes (false: it surely has none). */
    static boolean mayHaveChildren() {
        if (PENDING != null) {
            return !PENDING.isEmpty();
        }
        // A JDK without that table: a process reaper thread lives for a minute after any
        // process was started, so look at every descendant meanwhile.
        for (Thread t : allThreads()) {
            if (t.getName().startsWith("process reaper")) {
                return true;
            }
        }
        return false;
    }

    private void checkProcesses(int blame) {
        if (!mayHaveChildren()) {
            return;
        }
        int killed = killDescendants(GRACE_MS);
        if (killed > 0) {
            progress.crash(M_LEAKED_PROCESSES, blame, killed);
        }
    }

    /**
     * Kills the descendants of this JVM (children, their children, ...) still running after
     * waiting up to graceMs for them to end on their own; returns how many it killed.
     */
    static int killDescendants(long graceMs) {
        List<ProcessHandle> left;
        try {
            left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        } catch (RuntimeException e) {
            return 0;
        }
        long deadline = System.nanoTime() + graceMs * 1_000_000L;
        while (anyAlive(left) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                break;
            }
        }
        int killed = 0;
        for (ProcessHandle p : left) {
            if (p.isAlive() && p.destroyForcibly()) {
                killed++;
            }
        }
        return killed;
    }

    private static boolean anyAlive(List<ProcessHandle> ps) {
        for (ProcessHandle p : ps) {
            if (p.isAlive()) {
                return true;
            }
        }
        return false;
    }
}
