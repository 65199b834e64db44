package jforge.worker;

import java.nio.MappedByteBuffer;

import static jforge.worker.Proto.HALT_CODE;
import static jforge.worker.Proto.M_TIMEOUT;
import static jforge.worker.Proto.P_BYTES;
import static jforge.worker.Proto.P_COUNT;
import static jforge.worker.Proto.P_DATA;
import static jforge.worker.Proto.P_DETAIL;
import static jforge.worker.Proto.P_EPOCH;
import static jforge.worker.Proto.P_LIMIT;
import static jforge.worker.Proto.P_MARKER;
import static jforge.worker.Proto.P_NSTMT;
import static jforge.worker.Proto.P_STMT;
import static jforge.worker.Proto.P_TAG;

/**
 * The progress file and the per-call watchdog. Why: the worker may die without a word
 * (System.exit, Runtime.halt, a kill after a hang), so it mirrors into a memory-mapped file
 * shared with jforge which request and statement run now, the outcomes so far and, when it
 * halts itself, why (a marker); after any death that file says whom to blame and what the
 * earlier statements did. The epoch, bumped at each call, tells jforge a slow but progressing
 * sequence from a hung one. The watchdog thread halts the JVM when one call runs past the
 * per-call time limit; {@link #crash} halts it for the other reasons. Layout: Proto.P_*.
 */
final class Progress {
    private final MappedByteBuffer pm;
    /** The user's call limit (--call-timeout): the watchdog's limit never exceeds it. */
    private final long capNanos;
    /**
     * The watchdog's limit: the cap (or the limit the worker before this one had adapted to)
     * until 32 calls ran, then SLACK times the 99.9th percentile of the calls' durations, at
     * least min(FLOOR, cap); mirrored into the progress file once adapted (P_LIMIT, 0 before). Why: most calls take
     * microseconds, and a hanging call held its worker (and the batch waiting for it) for the
     * whole cap, 5 s by default, each time (guava collect: 14 timeouts in 120 s).
     */
    private volatile long limitNanos;
    private static final int ADAPT_EVERY = 256;
    private static final long SLACK = 20;
    /**
     * The lowest adapted limit. Why 100 ms: measured over guava collect, commons-lang3,
     * commons-collections4 and java.util (20 s each, ARCHITECTURE "Adaptive call limit"), about
     * 1 call in 10,000 that ended by itself took longer, mostly first uses (loading a time
     * zone, a locale table) and huge arguments (StringUtils.center with a width of millions),
     * while every hang cost the whole limit: at 1 s the two dozen hangs of a 60 s guava run
     * took a fifth of the worker time.
     */
    private static final long FLOOR_NANOS = 100_000_000L;
    /**
     * The limit of a worker that has not adapted yet after a timeout among its first calls
     * (jforge starts a worker no lower: runner::worker::COLD_LIMIT). Why not the floor: the
     * first calls of a fresh JVM load classes and run interpreted, ten times slower and more.
     */
    private static final long COLD_NANOS = 1_000_000_000L;
    /** Calls by duration: bucket b holds calls of [2^b, 2^(b+1)) ns. */
    private final long[] durations = new long[64];
    private long calls;
    /** The thread running the calls (the worker's main thread). */
    private volatile Thread caller;
    /** The call running was interrupted by the watchdog (guarded by lock). */
    private boolean interrupted;
    /**
     * How long an interrupted call has to end before the worker halts. Why interrupt first: a
     * call that waits (a queue's poll or drain with a timeout argument) ends when interrupted,
     * and halting it cost a JVM start and class loading each time.
     */
    private static final long INTERRUPT_GRACE_NANOS = 200_000_000L;
    /**
     * How long a call stopped with Thread.stop has to end before the worker halts. Why stop:
     * a call that computes without end (a loop, a huge range) ignores interrupts, and each
     * halt cost a JVM start plus the loading of the classes under test (guava collect: 31
     * restarts in 120 s, all timeouts). Thread.stop ends it with a ThreadDeath that unwinds
     * the call (its finally blocks run, its monitors are released); the sequence's values are
     * dropped as after any timeout, and Leaks checks no thread of the call is left. Only
     * statements' calls are stopped (not the contracts, observers or exhaustive's tasks,
     * whose callers do not expect a ThreadDeath), never one inside a static initializer (its
     * class would stay unusable in this worker), and only where the JDK still has it (17 to
     * 19; from 20 Thread.stop throws UnsupportedOperationException): otherwise, and when the
     * call does not end after the stop either, the worker halts as before.
     */
    private static final long STOP_GRACE_NANOS = 500_000_000L;
    private static final boolean STOP_WORKS = Runtime.version().feature() < 20;
    /** The call running may be stopped (a statement's call: see beginCall). */
    private volatile boolean stoppable;
    /** The call running was stopped by the watchdog (guarded by lock), at stoppedAt. */
    private boolean stopped;
    private long stoppedAt;
    /** When the watchdog interrupted the call running (guarded by lock; 0: not yet). */
    private long cutAt;
    /** The call running was runnable, not waiting, when interrupted (guarded by lock). */
    private boolean computing;
    /**
     * How long an interrupted call that was computing has before it is stopped. Why shorter
     * than INTERRUPT_GRACE_NANOS: a loop ignores interrupts, and each hang of guava collect
     * waited the whole 0.2 s for nothing (a fifth of the 1 s limit it then had).
     */
    private static final long COMPUTE_GRACE_NANOS = 20_000_000L;
    /**
     * The time the watchdog overslept its period by more than STALL_NANOS, summed (written by
     * the watchdog only), and its value when the call running began. Why: a pause of the
     * whole JVM (a full collection of a nearly full heap) or of the process (a loaded machine)
     * stops the call and the watchdog alike, and must not cut a call that is merely slow
     * then; at most one limit of stalls is forgiven per call, so a call that keeps the
     * collector busy is still cut.
     */
    private volatile long stalls;
    private volatile long stallsAtStart;
    private static final long STALL_NANOS = 20_000_000L;

    private final Object lock = new Object();
    private volatile boolean inCall;
    private volatile long callStart;
    private int epoch;
    /** False once the outcomes no longer fit the file (jforge then blames without them). */
    private boolean recording = true;

    Progress(MappedByteBuffer pm, long timeoutMs, long initialMs) {
        this.pm = pm;
        this.capNanos = timeoutMs * 1_000_000L;
        this.limitNanos = Math.min(capNanos, Math.max(1, initialMs) * 1_000_000L);
        pm.putInt(P_LIMIT, 0);
        histogram = durations;
    }

    /** The durations of the worker's Progress (for the call profile, which may not be loaded early). */
    static long[] histogram;

    void startWatchdog() {
        Thread wd = new Thread(this::watchdog, "jforge-watchdog");
        wd.setDaemon(true);
        wd.setPriority(Thread.MAX_PRIORITY);
        wd.start();
    }

    /**
     * A call that has waited (sleeping, parked, blocked on a monitor: the thread not runnable)
     * this long on end is over the limit, whatever the limit. Why: such a call uses no CPU
     * and holds its worker and the batch waiting for it; on guava collect the timed waits
     * (Queues.drain(..., long, TimeUnit), drainUninterruptibly(..., Duration)) each held a
     * worker 1 to 3 s while the machine was idle. Typical calls take microseconds, so 200 ms
     * of waiting is a factor of 1000 and more above them; a call that computes keeps the
     * adaptive limit.
     */
    private static final long WAIT_LIMIT_NANOS = 200_000_000L;
    /** When the call running was first seen waiting, and not runnable since (0: not waiting). */
    private long waitingSince;

    /**
     * Watches the call running each period: cuts it when over the limit (see check), and
     * counts the periods it overslept (see stalls).
     */
    private void watchdog() {
        long last = System.nanoTime();
        while (true) {
            long period = Math.max(5_000_000L, Math.min(50_000_000L, limitNanos / 10));
            try {
                Thread.sleep(period / 1_000_000L);
            } catch (InterruptedException e) {
                // keep watching
            }
            long now = System.nanoTime();
            long late = now - last - period;
            last = now;
            if (late > STALL_NANOS) {
                stalls += late;
            }
            long waited = waited();
            if (inCall) {
                check(now, waited);
            }
        }
    }

    /**
     * The time of the call running charged against the limit: its wall time less the stalls
     * since it began, of at most one limit (see stalls).
     */
    private long charged(long now) {
        return now - callStart - Math.min(stalls - stallsAtStart, limitNanos);
    }

    /**
     * Cuts the call running when over the limit (computing past the adaptive limit, or
     * waiting past WAIT_LIMIT_NANOS): first an interrupt (a call that waits ends), then, after
     * a grace (short for a call that computes, which ignores interrupts), Thread.stop, then
     * at each period a handshake until it ends (see nudge), and a halt when it does not end
     * within STOP_GRACE_NANOS or may not be stopped. A call inside a class initializer has
     * the user's whole limit (see inInitializer).
     */
    private void check(long now, long waited) {
        synchronized (lock) {
            if (!inCall) {
                return;
            }
            if (cutAt == 0) {
                boolean waitedLong = waited > WAIT_LIMIT_NANOS;
                if ((charged(now) <= limit() && !waitedLong)
                        || (!waitedLong && now - callStart <= capNanos && (inInitializer() || nearOutOfMemory()))) {
                    return;
                }
                // First interrupt the call: one waiting (sleep, a queue's poll with a
                // timeout, a lock) ends, and the worker goes on (see interrupted()).
                interrupted = true;
                cutAt = now;
                computing = waited == 0 && caller.getState() == Thread.State.RUNNABLE;
                log("interrupt", waited);
                caller.interrupt();
                return;
            }
            if (!stopped && now - cutAt >= (computing ? COMPUTE_GRACE_NANOS : INTERRUPT_GRACE_NANOS)) {
                if (!stop()) {
                    halt("halt " + unstoppable(), waited);
                }
                stopped = true;
                stoppedAt = now;
            } else if (stopped && now - stoppedAt > STOP_GRACE_NANOS) {
                halt("halt after stop", waited);
            } else if (stopped) {
                nudge();
            }
        }
    }

    /**
     * Whether the heap is nearly full (over 85% of -Xmx in use): a call that allocates toward
     * an OutOfMemoryError is then given the user's whole limit, since it ends with the error,
     * which the worker survives (an outcome, not a timeout). Why: on a loaded machine the
     * full collections before the error took longer than the adapted limit, and such a call
     * was cut and excluded as hung (hostile.Hostile.allocate() in CI, 2026-11-28). Runtime's
     * counters only: no management classes loaded in the worker.
     */
    private static boolean nearOutOfMemory() {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        return used > rt.maxMemory() / 100 * 85;
    }

    /**
     * The limit of the call running: the adapted limit for a statement's call, at least the
     * cold limit for one that may not be stopped (exhaustive's tasks, observers). Why: there
     * a cut halts the worker (a JVM start, the classes loaded again), where a stopped
     * statement costs one timeout; the 100 ms floor was measured on statements' calls.
     */
    private long limit() {
        if (observer) {
            return Math.min(capNanos, calls < ADAPT_EVERY ? COLD_NANOS : OBSERVER_NANOS);
        }
        if (patient) {
            return capNanos;
        }
        return stoppable ? limitNanos : Math.max(limitNanos, Math.min(capNanos, COLD_NANOS));
    }

    /**
     * Whether the calls of the sequence now running have the user's whole limit (the cap)
     * instead of the adapted one: set for MODE_OBSERVE, the sequences a suite is written from,
     * which ended by themselves when generated. Why: a slow but legitimate call (20 ms of
     * work) ran past the 100 ms floor on a loaded machine in one of the two observing runs,
     * and its test was dropped as unstable; the few sequences observed make a rare real hang
     * there cheap.
     */
    private volatile boolean patient;

    /**
     * The call running is an observer of MODE_OBSERVE (see beginObserver), and the limit of
     * such a call once the worker is warm (ADAPT_EVERY calls made; before, the cold limit),
     * patient or not. Why: patience is for the statements, which ended by themselves when
     * generated; an observer was never called in generation, and one that loops
     * (CursorableLinkedList's Cursor.previousIndex() on a cursor whose node left the list)
     * held its worker for the user's whole limit, 5 s, per test (the collections4 list
     * package: finishing 5.4 s of a 12 s run). A getter that takes a quarter of a second in
     * a warm JVM is not worth asserting; the cold limit covers the first calls of a fresh
     * second-opinion JVM, which load classes and run interpreted.
     */
    private volatile boolean observer;
    private static final long OBSERVER_NANOS = 250_000_000L;

    /** Sets {@link #patient} for the sequence about to run. */
    void patient(boolean on) {
        patient = on;
    }

    /**
     * Makes the stopped thread take its ThreadDeath: a handshake (here a stack walk) has it
     * check for a pending asynchronous exception. Why: on JDK 17 Thread.stop only marks the
     * exception pending, and compiled code that neither allocates nor calls into the VM (a
     * multiset iterator counting down 2^31 copies, Range.contains in removeIf) never looked:
     * the call ran on, and the worker halted 0.5 s later (guava collect: 4 to 6 restarts per
     * 60 s, every one of them such a call).
     */
    private void nudge() {
        caller.getStackTrace();
    }

    /** Records why in the progress file and halts the JVM (jforge restarts the worker). */
    private void halt(String why, long waited) {
        log(why, waited);
        pm.putInt(P_MARKER, M_TIMEOUT);
        Runtime.getRuntime().halt(HALT_CODE);
    }

    /**
     * Whether the call running is inside a class initializer: such a call may not be stopped
     * (its class would stay unusable in this worker), so cutting it at the adaptive limit
     * would halt the worker for an initializer that is merely slow (a large static table, the
     * first use of a subsystem) and again at each start; it gets the user's limit instead.
     */
    private boolean inInitializer() {
        for (StackTraceElement f : caller.getStackTrace()) {
            if ("<clinit>".equals(f.getMethodName())) {
                return true;
            }
        }
        return false;
    }

    /** The call profile's line about the call running (see CallProfile.timeout). */
    private void log(String what, long waited) {
        if (CallProfile.ON) {
            CallProfile.timeout(what, System.nanoTime() - callStart, waited, limitNanos, caller);
        }
    }

    /** Why the call running may not be stopped (for the call profile's halt line). */
    private String unstoppable() {
        if (!STOP_WORKS) {
            return "(jdk 20+)";
        }
        if (!stoppable) {
            return "(not a statement's call)";
        }
        return inInitializer() ? "(in <clinit>)" : "(stop refused)";
    }

    /**
     * How long the call running has been waiting on end (see WAIT_LIMIT_NANOS), sampled at
     * each watchdog period; 0 when it runs or no call does.
     */
    private long waited() {
        Thread t = caller;
        long now = System.nanoTime();
        if (!inCall || t == null) {
            waitingSince = 0;
            return 0;
        }
        Thread.State st = t.getState();
        boolean waiting = st == Thread.State.WAITING || st == Thread.State.TIMED_WAITING
                || st == Thread.State.BLOCKED;
        if (!waiting) {
            waitingSince = 0;
            return 0;
        }
        if (waitingSince == 0 || waitingSince < callStart) {
            waitingSince = now;
        }
        return now - waitingSince;
    }

    /**
     * Stops the call running with Thread.stop when it may be (see STOP_GRACE_NANOS); false
     * when it may not or the JDK refuses, and the worker halts instead. Called under lock.
     */
    @SuppressWarnings({"deprecation", "removal"})
    private boolean stop() {
        if (!STOP_WORKS || !stoppable || inInitializer()) {
            return false;
        }
        log("stop", waitingSince == 0 ? 0 : System.nanoTime() - waitingSince);
        try {
            caller.stop();
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
        nudge();
        return true;
    }

    /**
     * A statement's call starts: as {@link #begin}, and the watchdog may stop it (Thread.stop)
     * when an interrupt does not end it; the caller catches the ThreadDeath.
     */
    void beginCall(int stmt) {
        begin(stmt);
        stoppable = true;
    }

    /**
     * An observer's call on the value of statement stmt starts (MODE_OBSERVE): as
     * {@link #beginCall}, with the observer's limit (see observer).
     */
    void beginObserver(int stmt) {
        beginCall(stmt);
        observer = true;
    }

    /** A call of statement (or task) stmt starts: the watchdog's clock runs. */
    void begin(int stmt) {
        caller = Thread.currentThread();
        stoppable = false;
        observer = false;
        synchronized (lock) {
            if (interrupted) {
                // an interrupt that came after its call ended must not reach this one
                interrupted = false;
                Thread.interrupted();
            }
            stopped = false;
            cutAt = 0;
        }
        stallsAtStart = stalls;
        pm.putInt(P_STMT, stmt);
        pm.putInt(P_EPOCH, ++epoch);
        callStart = System.nanoTime();
        inCall = true;
    }

    /** The call returned (or threw). */
    void end() {
        long d = System.nanoTime() - callStart;
        boolean timedOut;
        synchronized (lock) {
            inCall = false;
            stoppable = false;
            timedOut = interrupted;
        }
        if (timedOut) {
            // The thread's interrupt status goes now (interrupted() still answers from the
            // flag): left set, it closed the worker's socket at the next send (an
            // InterruptibleChannel) and the worker exited (EXIT_FATAL), when the call ended
            // by itself after the interrupt on a path that does not ask interrupted() (an
            // OutOfMemoryError whose collections ran past the limit; guava collect: 3-7 per
            // 60 s with the 100 ms floor). A call cut at the limit says nothing of what calls
            // take (it would set the limit to 20 times itself).
            Thread.interrupted();
            return;
        }
        durations[63 - Long.numberOfLeadingZeros(Math.max(1, d))]++;
        // early (32, 64, 128 calls: a hang among the first calls costs the full cap), then
        // every ADAPT_EVERY calls
        if (++calls % ADAPT_EVERY == 0 || (calls < ADAPT_EVERY && calls >= 32 && Long.bitCount(calls) == 1)) {
            adapt();
        }
    }

    /**
     * Whether the call that just ended ran past the limit and was interrupted (it ended within
     * the grace period, so the worker goes on: the call's outcome is a timeout); clears the
     * interrupt flag the watchdog set.
     */
    boolean interrupted() {
        synchronized (lock) {
            if (!interrupted) {
                return false;
            }
            interrupted = false;
        }
        Thread.interrupted();
        if (calls < 32) {
            // A hang before the limit adapted cost the whole cap: the next one costs the
            // cold limit (as jforge starts a worker after a timeout: COLD_LIMIT); it adapts
            // after 32 calls.
            limitNanos = Math.min(capNanos, COLD_NANOS);
            pm.putInt(P_LIMIT, (int) (limitNanos / 1_000_000L));
        }
        return true;
    }

    /** Sets the watchdog's limit from the durations seen (see limitNanos). */
    private void adapt() {
        long slowest = calls / 1000;
        long seen = 0;
        int b = 63;
        while (b > 0 && seen + durations[b] <= slowest) {
            seen += durations[b];
            b--;
        }
        long p999 = 1L << Math.min(62, b + 1);
        long floor = Math.min(FLOOR_NANOS, capNanos);
        limitNanos = Math.min(capNanos, Math.max(floor, SLACK * Math.min(p999, capNanos)));
        pm.putInt(P_LIMIT, (int) Math.min(Integer.MAX_VALUE, limitNanos / 1_000_000L));
    }

    /** Records why the worker stops, blaming statement stmt, and halts the JVM. */
    void crash(int marker, int stmt) {
        crash(marker, stmt, 0);
    }

    /** As {@link #crash(int, int)}, with a number that goes with the marker (P_DETAIL). */
    void crash(int marker, int stmt, int detail) {
        synchronized (lock) {
            pm.putInt(P_DETAIL, detail);
            pm.putInt(P_STMT, stmt);
            pm.putInt(P_MARKER, marker);
            Runtime.getRuntime().halt(HALT_CODE);
        }
    }

    /** The statement (or task) running or last run. */
    int stmt() {
        return pm.getInt(P_STMT);
    }

    /** A request of n statements (or tasks) with this tag starts. */
    void reset(int n, int tag) {
        pm.putInt(P_MARKER, 0);
        pm.putInt(P_DETAIL, 0);
        pm.putInt(P_COUNT, 0);
        pm.putInt(P_BYTES, 0);
        pm.putInt(P_NSTMT, n);
        pm.putInt(P_STMT, 0);
        pm.putInt(P_TAG, tag);
        recording = true;
    }

    /** Mirrors the outcome bytes of outc written since {@code from}; count outcomes so far. */
    void record(Buf outc, int from, int count) {
        if (!recording) {
            return;
        }
        int len = outc.n - from;
        int at = P_DATA + from;
        if (at + len > pm.capacity()) {
            recording = false;
            return;
        }
        pm.put(at, outc.b, from, len);
        pm.putInt(P_BYTES, outc.n);
        pm.putInt(P_COUNT, count);
    }
}
