package jforge.worker;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

import static jforge.worker.Proto.CANON_OP;
import static jforge.worker.Proto.MODE_BULK;
import static jforge.worker.Proto.MODE_CANON;
import static jforge.worker.Proto.MODE_GENERATE;
import static jforge.worker.Proto.MODE_OBSERVE;
import static jforge.worker.Proto.M_OOM;
import static jforge.worker.Proto.M_SOE;
import static jforge.worker.Proto.OP_CTOR;
import static jforge.worker.Proto.OP_FGET;
import static jforge.worker.Proto.OP_FSET;
import static jforge.worker.Proto.OP_METHOD;
import static jforge.worker.Proto.OP_SFGET;
import static jforge.worker.Proto.OP_SFSET;
import static jforge.worker.Proto.OP_SMETHOD;
import static jforge.worker.Proto.CK_OOM;
import static jforge.worker.Proto.CK_SOE;
import static jforge.worker.Proto.O_CRASH;
import static jforge.worker.Proto.O_NOTRUN;
import static jforge.worker.Proto.O_TIMEOUT;
import static jforge.worker.Proto.STMT_ARRAY;
import static jforge.worker.Proto.STMT_CALL;
import static jforge.worker.Proto.STMT_LIT;
import static jforge.worker.Proto.STMT_PROTO;
import static jforge.worker.Proto.THROWN_SECTION;
import static jforge.worker.Proto.V_BOOLEAN;
import static jforge.worker.Proto.V_BYTE;
import static jforge.worker.Proto.V_CHAR;
import static jforge.worker.Proto.V_DOUBLE;
import static jforge.worker.Proto.V_ENUM;
import static jforge.worker.Proto.V_LAMBDA;
import static jforge.worker.Proto.V_CLASS;
import static jforge.worker.Proto.V_FLOAT;
import static jforge.worker.Proto.V_INT;
import static jforge.worker.Proto.V_LONG;
import static jforge.worker.Proto.V_NULL;
import static jforge.worker.Proto.V_SHORT;
import static jforge.worker.Proto.V_STRING;

/**
 * Runs EXEC requests: decodes each sequence, runs its statements by reflection in order (each
 * call under the watchdog, its outcome mirrored into the progress file), then the contracts
 * and observers, and replies with one RESULT frame per sequence. A statement that throws ends
 * the sequence (the rest are not run); an out-of-memory error or stack overflow is that
 * statement's outcome (O_CRASH) when the worker can go on, else it halts the worker with the
 * statement blamed (Fatal); a sequence that leaves threads or processes behind halts it
 * (Leaks). A sequence jforge built wrongly (an argument that refers forward,
 * an operation that did not resolve) gets the pseudo-exception jforge.MalformedSequence, never
 * a crash. Bulk requests (jforge exhaustive) go to Exhaustive.
 */
final class Executor {
    /** A call printing more than this is reported as jforge.ExcessiveOutput. */
    static final long MAX_OUTPUT = 1 << 20;
    static final String EXCESSIVE_OUTPUT = "jforge.ExcessiveOutput";
    /**
     * With -Djforge.console=quiet (gen's workers), a call that prints anything at all is
     * reported as this pseudo-exception: a test calling it would print whenever a build runs
     * it (printStackTrace(), System.out.println in the code under test).
     */
    static final String PRINTS_TO_CONSOLE = "jforge.PrintsToConsole";
    static final boolean QUIET_CONSOLE = "quiet".equals(System.getProperty("jforge.console"));

    /** A decoded statement (reused between sequences). */
    static final class Stmt {
        /** Proto.STMT_*. */
        int kind;
        /** Operation id (calls), prototype id (copies of a prototype). */
        int op;
        int[] args = new int[8];
        int nargs;
        /** Type string id (literals, arrays). */
        int ty;
        Object lit;
        String enumClass;
        String enumName;
    }

    private final Frames frames;
    private final Registry registry;
    private final Progress progress;
    private final Outcomes outcomes;
    private final Contracts contracts;
    private final Coverage coverage;
    /**
     * The sequence's probe array while recording is paused (Coverage.pause): probes count
     * only while a statement's call runs and while the observers after the last one run, not
     * while the worker decodes, records outcomes (its own HashMaps), blames or checks. Why:
     * with HashMap or ArrayList under test, the worker's bookkeeping between calls hit their
     * probes in every sequence, depending on the worker's history (a class name seen before or
     * not), and the suites differed between 1 and 2 workers.
     */
    private Object covLive;
    private final ClockControl clock;
    private final Tracing tracing;
    private final Leaks leaks;
    private final Exhaustive exhaustive;
    private final ClassLoader loader;
    private final Blame blame;
    /** What a call of the sequence threw, and which statement (-1: none). */
    private Throwable thrown;
    private int thrownAt = -1;

    // the sequence being run
    Object[] vals = new Object[64];
    boolean[] isRef = new boolean[64];
    private Stmt[] stmts = new Stmt[64];
    /** Where each statement's outcome starts in the outcome bytes (see crashed). */
    private int[] outAt = new int[64];
    /** How many class names the string table held when each statement started. */
    private int[] classesAt = new int[64];
    private int[] cv = new int[16];
    private int[] obsStmt = new int[16];
    private int[] obsOp = new int[16];

    Executor(Frames frames, Registry registry, Progress progress, Outcomes outcomes, Contracts contracts,
            Coverage coverage, Leaks leaks, ClassLoader loader) {
        this.frames = frames;
        this.registry = registry;
        this.progress = progress;
        this.outcomes = outcomes;
        this.contracts = contracts;
        this.coverage = coverage;
        coverage.warmUp();
        Lambdas.coverage = coverage;
        this.clock = new ClockControl(loader);
        this.tracing = new Tracing(loader);
        this.leaks = leaks;
        this.loader = loader;
        this.exhaustive = new Exhaustive(this, frames, registry, progress, outcomes, contracts, leaks);
        this.blame = new Blame(this, registry, outcomes, loader);
        contracts.blame = blame;
    }

    /**
     * Operations whose call timed out (interrupted or stopped: the worker went on) in this
     * EXEC frame or the earlier frames of its batch: its later generation sequences that end with a call of one are answered
     * not run. Why: a worker that survives a hang goes on with the frame, and each of those
     * would likely cost a call limit again (when the worker halted, jforge skipped them:
     * Pool's skip_hung); jforge excludes the operation once it sees the timeouts.
     */
    private final java.util.Set<Integer> hungOps = new java.util.HashSet<>();
    /**
     * Runtime classes of the arguments of the calls that timed out in this EXEC frame (or the
     * earlier frames of its batch): a
     * later generation sequence whose last call takes a value of one is answered not run.
     * Why: the hang is usually the argument's doing (an endless iterator given to a consumer,
     * guava's cycle()), and the frame's other consumers of such values would each cost a
     * call limit before jforge learns to stop reusing them (see src/generate/hangs.rs).
     */
    private final java.util.Set<Class<?>> hungClasses = new java.util.HashSet<>();
    /** The sequence running is generation's (mode GENERATE). */
    private boolean generating;

    /**
     * EXEC: new type strings, whether the frame continues the previous frame's batch (jforge
     * cuts a batch into chunks: what hung in one chunk still holds for the batch's next ones
     * on this worker), then the sequences, each answered with a RESULT frame.
     */
    void exec() throws Exception {
        Buf in = frames.in;
        registry.readTypes(in);
        if (in.ru8() == 0) {
            hungOps.clear();
            hungClasses.clear();
        }
        int nseq = in.ri32();
        for (int q = 0; q < nseq; q++) {
            runSequence(in);
        }
    }

    private void runSequence(Buf in) throws Exception {
        int tag = in.ri32();
        int mode = in.ru8();
        outcomes.arrays = mode == MODE_OBSERVE;
        outcomes.throwers = mode == MODE_OBSERVE;
        if (mode == MODE_BULK) {
            exhaustive.runBulk(tag);
            return;
        }
        int n = readStatements(in);
        int ncv = readContractValues(in);
        int nobs = readObservers(in);
        exhaustive.retain = 0;
        if (mode == MODE_CANON) {
            // jforge exhaustive, prototype reuse (see Protos): retain id, promotions, forget
            exhaustive.retain = in.ri32();
            exhaustive.readPromotions(in);
        }
        progress.reset(n, tag);
        progress.patient(mode == MODE_OBSERVE);
        outcomes.outc.reset();
        generating = mode == MODE_GENERATE;
        if (Tracing.ON && generating) {
            tracing.begin();
        }
        startRun();
        try {
            long t0 = CallProfile.ON ? System.nanoTime() : 0;
            long loaded = generating && !Tracing.ON && coverage.on() && n > 0 ? Coverage.loadedClasses() : -1;
            int hung = hungOps.size();
            boolean ok = runStatements(n);
            if (loaded >= 0 && hungOps.size() == hung && Coverage.loadedClasses() != loaded) {
                ok = runAgain(n, tag);
            }
            tracing.stop();
            long t1 = CallProfile.ON ? System.nanoTime() : 0;
            // observers run in the written test's assertions: they count
            coverage.resume(covLive);
            afterStatements(ok, n, mode, ncv, nobs);
            covLive = coverage.pause();
            blameThrown(n);
            coverage.cmpStop();
            long t2 = CallProfile.ON ? System.nanoTime() : 0;
            leaks.check(Math.max(0, n - 1));
            if (CallProfile.ON) {
                long t3 = System.nanoTime();
                CallProfile.PHASE[1] += t1 - t0;
                CallProfile.PHASE[2] += t2 - t1;
                CallProfile.PHASE[3] += t3 - t2;
                CallProfile.seqs++;
            }
        } catch (Fatal f) {
            crashed(f.marker, f.recoverable, f.collected, n);
        } catch (OutOfMemoryError e) {
            crashed(M_OOM, Fatal.heapOnly(e), Fatal.collected(e), n);
        } catch (StackOverflowError e) {
            crashed(M_SOE, true, false, n);
        } catch (ThreadDeath d) {
            contractStopped(n);
        }
        for (int i = 0; i < n; i++) {
            vals[i] = null;
            stmts[i].lit = null;
        }
        Buf out = frames.result(tag, n, outcomes.outc);
        out.bytes(outcomes.tail.b, 0, outcomes.tail.n);
        clock.append(out);
        coverage.resume(covLive);
        coverage.append(out);
        covLive = coverage.pause();
        tracing.append(out);
        long s0 = CallProfile.ON ? System.nanoTime() : 0;
        frames.send();
        if (CallProfile.ON) {
            CallProfile.PHASE[4] += System.nanoTime() - s0;
            CallProfile.dumpMaybe(registry);
        }
    }

    /**
     * Runs a generation sequence a second time, from scratch, when the JVM loaded or defined a
     * class while it ran (coverage on; not after a timeout): its outcomes and coverage are the
     * second run's. Why: what runs once per JVM (class loading, a lambda's or a proxy's class
     * spun, a method handle's form compiled) runs instrumented JDK classes under test
     * (ClassLoader.addClass adds to an ArrayList) in whichever sequence comes first in that
     * worker, and with ArrayList under test the written suites differed between 1 and 2
     * workers. The second run is the one any later sequence would have, with the classes
     * loaded. Cost: a second run of the sequences that load classes, mostly the first ones of
     * each worker.
     */
    private boolean runAgain(int n, int tag) throws Exception {
        outcomes.forgetClassesFrom(classesAt[0]);
        outcomes.outc.reset();
        progress.reset(n, tag);
        for (int i = 0; i < n; i++) {
            vals[i] = null;
        }
        startRun();
        return runStatements(n);
    }

    /**
     * Starts a run of the sequence's statements: the probes and comparisons logged so far
     * dropped, recording paused (probes count only while a statement's call runs, see call),
     * the clock started again, no exception thrown yet.
     */
    private void startRun() {
        coverage.resume(covLive);
        coverage.cmpStart();
        covLive = coverage.pause();
        clock.start();
        thrown = null;
        thrownAt = -1;
    }

    /**
     * An OutOfMemoryError or StackOverflowError ended the sequence in the statement running
     * (the last one when it came from the contracts or observers after it): the worker drops
     * the sequence's values and, when it can go on (see Fatal), makes the crash that
     * statement's outcome, the earlier outcomes kept, the rest not run, no contracts or
     * observers; otherwise it halts blaming that statement. Leaks are checked as after any
     * sequence. collected: the JVM collected the heap fully before throwing the OOM.
     */
    private void crashed(int marker, boolean recoverable, boolean collected, int n) {
        progress.end();
        int at = dropValues(n);
        if (!recoverable || (marker == M_OOM && !Fatal.heapRecovered(collected))) {
            progress.crash(marker, at);
        }
        endAt(at, n, O_CRASH, marker == M_OOM ? CK_OOM : CK_SOE);
    }

    /**
     * Drops the sequence's values and what the contracts wrote after a call that did not
     * end normally; returns the statement running (or the last).
     */
    private int dropValues(int n) {
        int at = Math.max(0, Math.min(progress.stmt(), n - 1));
        for (int i = 0; i < n; i++) {
            vals[i] = null;
            stmts[i].lit = null;
        }
        thrown = null;
        thrownAt = -1;
        outcomes.tail.reset();
        return at;
    }

    /**
     * Ends the sequence's outcomes at statement at: the earlier ones kept, at's the given
     * outcome (and its crash kind, -1 for none), the rest not run, no violations or
     * observers; then checks for leaks as after any sequence.
     */
    private void endAt(int at, int n, int outcome, int kind) {
        coverage.cmpStop();
        Buf outc = outcomes.outc;
        outc.n = outAt[at];
        outcomes.forgetClassesFrom(classesAt[at]);
        outc.u8(outcome);
        if (kind >= 0) {
            outc.u8(kind);
        }
        for (int j = at + 1; j < n; j++) {
            outc.u8(O_NOTRUN);
        }
        outcomes.tail.i32(0);
        outcomes.tail.i32(0);
        leaks.check(at);
    }

    /**
     * A contract check (equals, hashCode, toString, compareTo) on the value of a statement ran
     * past the limit and was stopped (Thread.stop; the contracts' calls are stoppable like the
     * statements'): that statement's outcome is a timeout, the earlier ones kept, the rest not
     * run, no violations. Why: toString of an endless view (guava's filter of a cycle) never
     * ends, and the worker used to halt for it (a JVM start plus the package's class loading).
     */
    private void contractStopped(int n) {
        progress.end();
        progress.interrupted();
        int at = dropValues(n);
        if (CallProfile.ON && stmts[at].kind == STMT_CALL) {
            CallProfile.timeoutEnded(registry, stmts[at].op, "contract check stopped", 0);
        }
        if (generating && stmts[at].kind == STMT_CALL) {
            hungOps.add(stmts[at].op);
        }
        endAt(at, n, O_TIMEOUT, -1);
    }

    /**
     * Statement i ran past the call limit, was interrupted and ended: its outcome is a
     * timeout whatever it returned or threw (the worker goes on); returns false.
     */
    private boolean timedOut(int i, int before) {
        outcomes.outc.n = before;
        outcomes.forgetClassesFrom(classesAt[i]);
        outcomes.outc.u8(O_TIMEOUT);
        vals[i] = null;
        if (thrownAt == i) {
            thrown = null;
            thrownAt = -1;
        }
        return false;
    }

    /**
     * The THROWN section of the tail: who broke what a call threw (see Blame), so that
     * jforge can tell a class's own exception from one thrown by an argument object.
     */
    private void blameThrown(int n) {
        if (thrown == null) {
            return;
        }
        Buf tail = outcomes.tail;
        tail.u8(THROWN_SECTION);
        tail.i32(thrownAt);
        blame.thrown(tail, thrown, n, thrownAt, -1, true);
        thrown = null;
    }

    /** Decodes the statements of a sequence; returns their number. */
    private int readStatements(Buf in) {
        int n = in.ri32();
        if (n < 0 || n > 1_000_000) {
            throw new IllegalStateException("bad statement count " + n);
        }
        ensureValues(n);
        for (int i = 0; i < n; i++) {
            Stmt s = stmt(i);
            s.kind = in.ru8();
            s.enumClass = null;
            s.lit = null;
            if (s.kind == STMT_CALL || s.kind == STMT_ARRAY) {
                if (s.kind == STMT_CALL) {
                    s.op = in.ri32();
                } else {
                    s.ty = in.ri32();
                }
                int na = in.ri32();
                if (na < 0 || na > 100_000) {
                    throw new IllegalStateException("bad argument count " + na);
                }
                if (s.args.length < na) {
                    s.args = new int[Math.max(na, s.args.length * 2)];
                }
                s.nargs = na;
                for (int k = 0; k < na; k++) {
                    s.args[k] = in.ri32();
                }
            } else if (s.kind == STMT_LIT) {
                s.ty = in.ri32();
                s.lit = readValue(in, s);
            } else if (s.kind == STMT_PROTO) {
                s.op = in.ri32();
                s.nargs = 0;
            } else {
                throw new IllegalStateException("bad statement kind " + s.kind);
            }
        }
        return n;
    }

    /** The statements whose values get the contracts. */
    private int readContractValues(Buf in) {
        int ncv = in.ri32();
        if (cv.length < ncv) {
            cv = new int[ncv];
        }
        for (int i = 0; i < ncv; i++) {
            cv[i] = in.ri32();
        }
        return ncv;
    }

    /** The observer calls (statement, op) made after the last statement. */
    private int readObservers(Buf in) {
        int nobs = in.ri32();
        if (obsStmt.length < nobs) {
            obsStmt = new int[nobs];
            obsOp = new int[nobs];
        }
        for (int i = 0; i < nobs; i++) {
            obsStmt[i] = in.ri32();
            obsOp[i] = in.ri32();
        }
        return nobs;
    }

    /** Room for k values. */
    void ensureValues(int k) {
        if (vals.length < k) {
            vals = new Object[Math.max(k, vals.length * 2)];
            isRef = new boolean[vals.length];
            outAt = new int[vals.length];
            classesAt = new int[vals.length];
        }
    }

    /** Runs the statements in order until one ends the sequence; true when all ran normally. */
    private boolean runStatements(int n) throws Exception {
        Buf outc = outcomes.outc;
        if (generating && n > 0 && stmts[n - 1].kind == STMT_CALL && hungOps.contains(stmts[n - 1].op)) {
            for (int j = 0; j < n; j++) {
                outc.u8(O_NOTRUN);
            }
            return false;
        }
        boolean checkArgs = generating && !hungClasses.isEmpty() && n > 0 && stmts[n - 1].kind == STMT_CALL;
        for (int i = 0; i < n; i++) {
            int before = outc.n;
            outAt[i] = before;
            classesAt[i] = outcomes.classCount();
            boolean ok;
            boolean stopped = false;
            long c0 = CallProfile.ON ? System.nanoTime() : 0;
            long a0 = CallProfile.ON ? CallProfile.allocated() : 0;
            if (checkArgs && i == n - 1 && takesHungValue(stmts[i])) {
                for (int j = i; j < n; j++) {
                    vals[j] = null;
                    outc.u8(O_NOTRUN);
                }
                return false;
            }
            try {
                progress.beginCall(i);
                ok = execStmt(i, stmts[i]);
                progress.end();
            } catch (ThreadDeath d) {
                // the watchdog stopped the call (Progress.stop): a timeout, the worker goes on
                progress.end();
                ok = false;
                stopped = true;
            }
            if (CallProfile.ON && stmts[i].kind == STMT_CALL) {
                CallProfile.call(stmts[i].op, System.nanoTime() - c0, CallProfile.allocated() - a0);
            }
            if (progress.interrupted() | stopped) {
                if (CallProfile.ON && stmts[i].kind == STMT_CALL) {
                    CallProfile.timeoutEnded(registry, stmts[i].op, stopped ? "stopped" : "interrupted", System.nanoTime() - c0);
                }
                ok = timedOut(i, before);
                if (generating && stmts[i].kind == STMT_CALL) {
                    hungOps.add(stmts[i].op);
                    noteHungArgs(stmts[i]);
                }
            }
            progress.record(outc, before, i + 1);
            if (!ok) {
                for (int j = i + 1; j < n; j++) {
                    vals[j] = null;
                    outc.u8(O_NOTRUN);
                }
                return false;
            }
        }
        return true;
    }

    /**
     * Records the classes of the object arguments of a call that timed out (hungClasses); not
     * its receiver's: a method that hangs on its own object is the operation's fault, and
     * jforge excludes the operation.
     */
    private void noteHungArgs(Stmt s) {
        for (int k = firstArg(s); k < s.nargs; k++) {
            int a = s.args[k];
            if (a >= 0 && a < vals.length && vals[a] != null && isRef[a]) {
                Class<?> c = vals[a].getClass();
                // Strings, boxes and enum constants (a TimeUnit) are plain values: their
                // class says nothing of the hang.
                if (!c.isEnum() && !c.getName().startsWith("java.lang.")) {
                    hungClasses.add(c);
                }
            }
        }
    }

    /** The index of a call's first argument after its receiver. */
    private int firstArg(Stmt s) {
        Registry.Op op = registry.op(s.op);
        return op != null && (op.kind == OP_METHOD || op.kind == OP_FGET || op.kind == OP_FSET) ? 1 : 0;
    }

    /** Whether a call takes an object of a class whose value made a call of this frame hang. */
    private boolean takesHungValue(Stmt s) {
        for (int k = firstArg(s); k < s.nargs; k++) {
            int a = s.args[k];
            if (a >= 0 && a < vals.length && vals[a] != null && isRef[a] && hungClasses.contains(vals[a].getClass())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The tail of the RESULT frame: contract violations, then observers (and, in Canon mode,
     * canonical forms), both only when every statement ran normally.
     */
    private void afterStatements(boolean ok, int n, int mode, int ncv, int nobs) {
        Buf tail = outcomes.tail;
        tail.reset();
        int violPos = tail.n;
        tail.i32(0);
        int nviol = 0;
        if (ok) {
            Object live = coverage.pause();
            try {
                nviol = contracts.check(vals, isRef, n, cv, ncv);
            } finally {
                coverage.resume(live);
            }
        }
        int save = tail.n;
        tail.n = violPos;
        tail.i32(nviol);
        tail.n = save;
        if (ok && mode == MODE_OBSERVE) {
            tail.i32(nobs);
            boolean going = true;
            for (int i = 0; i < nobs; i++) {
                if (going) {
                    going = contracts.observe(vals, obsStmt[i], obsOp[i], n, true);
                } else {
                    contracts.notObserved(obsStmt[i], obsOp[i]);
                }
            }
        } else if (ok && mode == MODE_CANON) {
            // ---- jforge exhaustive: canonical forms (CANON_OP) and observers (see Canon)
            tail.i32(nobs);
            for (int i = 0; i < nobs; i++) {
                if (obsOp[i] == CANON_OP) {
                    exhaustive.canon(vals, obsStmt[i], n);
                } else {
                    contracts.observe(vals, obsStmt[i], obsOp[i], n, false);
                }
            }
        } else {
            tail.i32(0);
        }
    }

    Stmt stmt(int i) {
        if (i >= stmts.length) {
            stmts = Arrays.copyOf(stmts, Math.max(i + 1, stmts.length * 2));
        }
        Stmt s = stmts[i];
        if (s == null) {
            s = new Stmt();
            stmts[i] = s;
        }
        return s;
    }

    /** A literal value (value tags Proto.V_*); an enum constant is left in s by name. */
    static Object readValue(Buf b, Stmt s) {
        int t = b.ru8();
        switch (t) {
            case V_NULL: return null;
            case V_BOOLEAN: return b.ru8() != 0;
            case V_BYTE: return (byte) b.ru8();
            case V_SHORT: return (short) b.ru16();
            case V_CHAR: return (char) b.ru16();
            case V_INT: return b.ri32();
            case V_LONG: return b.ri64();
            case V_FLOAT: return Float.intBitsToFloat(b.ri32());
            case V_DOUBLE: return Double.longBitsToDouble(b.ri64());
            case V_STRING: return b.rstr();
            case V_ENUM:
                s.enumClass = b.rstr();
                s.enumName = b.rstr();
                return null;
            case V_LAMBDA: return Lambdas.read(b);
            case V_CLASS: return new ClassLiteral(b.rstr());
            default:
                throw new IllegalStateException("bad value tag " + t);
        }
    }

    /** A class literal (V_CLASS), by field descriptor: resolved in the worker's class loader. */
    record ClassLiteral(String descriptor) {
        Class<?> resolve(ClassLoader loader) throws ClassNotFoundException {
            return switch (descriptor) {
                case "Z" -> boolean.class;
                case "B" -> byte.class;
                case "S" -> short.class;
                case "C" -> char.class;
                case "I" -> int.class;
                case "J" -> long.class;
                case "F" -> float.class;
                case "D" -> double.class;
                default -> {
                    String name = descriptor.startsWith("[")
                            ? descriptor.replace('/', '.')
                            : descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
                    yield Class.forName(name, false, loader);
                }
            };
        }
    }

    /** The enum constant a literal names. */
    Object enumConstant(Stmt s) throws ClassNotFoundException {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object e = Enum.valueOf((Class) Class.forName(s.enumClass, true, loader), s.enumName);
        return e;
    }

    /** Runs one statement and writes its outcome; false when the sequence must stop. */
    private boolean execStmt(int i, Stmt s) throws Exception {
        for (int k = 0; k < s.nargs; k++) {
            if (s.kind != STMT_LIT && (s.args[k] < 0 || s.args[k] >= i)) {
                return malformed(i, "argument " + k + " refers to statement " + s.args[k]);
            }
        }
        try {
            switch (s.kind) {
                case STMT_PROTO -> {
                    Object v;
                    try {
                        v = Protos.copyOf(s.op);
                    } catch (RuntimeException e) {
                        return flagged(i, Protos.COPY_FAILED, e.toString());
                    }
                    if (v == null) {
                        return flagged(i, Protos.MISSING, "prototype " + s.op + " is not held by this worker");
                    }
                    vals[i] = v;
                    isRef[i] = true;
                    outcomes.result(v, false);
                    return true;
                }
                case STMT_LIT -> {
                    Class<?> ty = registry.typeClass(s.ty);
                    Object v;
                    if (s.enumClass != null) {
                        v = enumConstant(s);
                    } else if (s.lit instanceof Lambdas.Spec spec) {
                        v = spec.make(ty);
                    } else if (s.lit instanceof ClassLiteral c) {
                        v = c.resolve(loader);
                    } else {
                        v = convert(s.lit, ty);
                        if (v == null && ty.isPrimitive()) {
                            return malformed(i, "null literal of primitive type");
                        }
                    }
                    vals[i] = v;
                    isRef[i] = !ty.isPrimitive();
                    outcomes.result(v, false);
                    return true;
                }
                case STMT_ARRAY -> {
                    Class<?> et = registry.typeClass(s.ty);
                    Object arr = Array.newInstance(et, s.nargs);
                    for (int k = 0; k < s.nargs; k++) {
                        Array.set(arr, k, vals[s.args[k]]);
                    }
                    vals[i] = arr;
                    isRef[i] = true;
                    outcomes.result(arr, false);
                    return true;
                }
                default -> {
                    return call(i, s);
                }
            }
        } catch (IllegalArgumentException | ClassNotFoundException | NoSuchFieldException e) {
            return malformed(i, e.toString());
        } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
            Fatal.check(e);
            return exception(i, e);
        }
    }

    /** A call statement: its value goes to vals[i]; false when it threw (or was malformed). */
    boolean call(int i, Stmt s) throws Exception {
        Registry.Op op = registry.op(s.op);
        if (op == null) {
            return malformed(i, "operation " + s.op + " is not registered or did not resolve");
        }
        boolean recv = op.kind == OP_METHOD || op.kind == OP_FGET || op.kind == OP_FSET;
        int off = recv ? 1 : 0;
        if (s.nargs != op.nparams + off) {
            return malformed(i, "operation takes " + (op.nparams + off) + " inputs, got " + s.nargs);
        }
        Object r = null;
        Object self = recv ? vals[s.args[0]] : null;
        long printedBefore = OutputSink.written;
        long closesBefore = GlobalState.closes();
        long propertiesBefore = GlobalState.propertyChanges();
        GlobalState.Seen[] threadLocalsBefore = QUIET_CONSOLE ? GlobalState.threadLocalsBefore() : null;
        if (recv && self == null) {
            vals[i] = null;
            return exception(i, new NullPointerException());
        }
        boolean traced = tracing.on() && (op.kind == OP_CTOR || op.kind == OP_METHOD || op.kind == OP_SMETHOD);
        // armed only inside a sequence's window with coverage on (not in bulk requests)
        boolean arm = covLive != null;
        try {
            if (arm) {
                coverage.resume(covLive);
            }
            try {
                switch (op.kind) {
                    case OP_CTOR -> {
                        Object[] a = argsOf(s, 0, op.nparams);
                        if (traced) {
                            tracing.arm(op.ctor, a, literalArgs(s, 0, op.nparams), arrayElems(s, 0, op.nparams), i);
                        }
                        r = op.ctor.newInstance(a);
                    }
                    case OP_METHOD -> {
                        Object[] a = argsOf(s, 1, op.nparams);
                        if (traced) {
                            tracing.arm(op.method, a, literalArgs(s, 1, op.nparams), arrayElems(s, 1, op.nparams), i);
                        }
                        r = op.method.invoke(self, a);
                    }
                    case OP_SMETHOD -> {
                        Object[] a = argsOf(s, 0, op.nparams);
                        if (traced) {
                            tracing.arm(op.method, a, literalArgs(s, 0, op.nparams), arrayElems(s, 0, op.nparams), i);
                        }
                        r = op.method.invoke(null, a);
                    }
                    case OP_FGET -> r = op.field.get(self);
                    case OP_SFGET -> r = op.field.get(null);
                    case OP_FSET -> op.field.set(self, vals[s.args[1]]);
                    case OP_SFSET -> op.field.set(null, vals[s.args[0]]);
                    default -> {
                        return malformed(i, "bad op kind");
                    }
                }
            } finally {
                if (arm) {
                    covLive = coverage.pause();
                }
            }
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            Fatal.check(c);
            String changed = GlobalState.after(QUIET_CONSOLE, closesBefore, propertiesBefore, threadLocalsBefore);
            if (changed != null) {
                return flagged(i, GlobalState.CHANGES_GLOBAL_STATE, changed);
            }
            // A call that printed, then threw, printed all the same: the written test that
            // expects its exception would print in the user's build (Commons CSV 1.14.1:
            // `printer.printRecord(..)` wrote "\tINVALID []" to System.out before a
            // NullPointerException).
            long printedFirst = OutputSink.written - printedBefore;
            if (printedFirst > MAX_OUTPUT) {
                return flagged(i, EXCESSIVE_OUTPUT, "printed " + printedFirst + " bytes to System.out/System.err");
            }
            if (printedFirst > 0 && QUIET_CONSOLE) {
                return flagged(i, PRINTS_TO_CONSOLE, "printed " + printedFirst + " bytes to System.out/System.err");
            }
            vals[i] = null;
            thrown = c;
            thrownAt = i;
            return exception(i, c);
        } catch (IllegalAccessException | InstantiationException | IllegalArgumentException e) {
            return malformed(i, e.toString());
        } finally {
            if (traced) {
                tracing.pause();
            }
        }
        String changed = GlobalState.after(QUIET_CONSOLE, closesBefore, propertiesBefore, threadLocalsBefore);
        if (changed != null) {
            return flagged(i, GlobalState.CHANGES_GLOBAL_STATE, changed);
        }
        long printed = OutputSink.written - printedBefore;
        if (printed > MAX_OUTPUT) {
            return flagged(i, EXCESSIVE_OUTPUT, "printed " + printed + " bytes to System.out/System.err");
        }
        if (printed > 0 && QUIET_CONSOLE) {
            return flagged(i, PRINTS_TO_CONSOLE, "printed " + printed + " bytes to System.out/System.err");
        }
        vals[i] = op.primRet ? boxed(r) : r;
        isRef[i] = !op.primRet;
        outcomes.result(r, op.voidRet);
        return true;
    }

    /**
     * A primitive result boxed as a compiled test boxes it (Integer.valueOf and the like: the
     * same object for small values). Why: reflection without spun accessors (the workers'
     * -Dsun.reflect.inflationThreshold) boxes into a new object each call, so values that
     * are one object in the written test (ten `size()` results of 1) were ten to the worker:
     * code under test that compares them by identity, and Blame's look at a comparator over
     * the sequence's distinct values, saw other values than the test will.
     */
    static Object boxed(Object r) {
        if (r instanceof Integer x) {
            return Integer.valueOf(x);
        } else if (r instanceof Boolean x) {
            return Boolean.valueOf(x);
        } else if (r instanceof Character x) {
            return Character.valueOf(x);
        } else if (r instanceof Long x) {
            return Long.valueOf(x);
        } else if (r instanceof Short x) {
            return Short.valueOf(x);
        } else if (r instanceof Byte x) {
            return Byte.valueOf(x);
        }
        return r;
    }

    /** For each argument: the statement that gave it when that is a literal, else -1 (tracing). */
    private int[] literalArgs(Stmt s, int from, int n) {
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            int at = s.args[from + k];
            out[k] = stmts[at].kind == STMT_LIT || stmts[at].kind == STMT_ARRAY ? at : -1;
        }
        return out;
    }

    /** For each argument given by an array statement: its elements' literal statements (-1: not a literal). */
    private int[][] arrayElems(Stmt s, int from, int n) {
        int[][] out = new int[n][];
        for (int k = 0; k < n; k++) {
            Stmt a = stmts[s.args[from + k]];
            if (a.kind != STMT_ARRAY) {
                continue;
            }
            out[k] = new int[a.nargs];
            for (int j = 0; j < a.nargs; j++) {
                out[k][j] = stmts[a.args[j]].kind == STMT_LIT ? a.args[j] : -1;
            }
        }
        return out;
    }

    private Object[] argsOf(Stmt s, int from, int n) {
        Object[] a = new Object[n];
        for (int k = 0; k < n; k++) {
            a[k] = vals[s.args[from + k]];
        }
        return a;
    }

    /** A literal as the primitive (or boxed) type ty expects; other values unchanged. */
    static Object convert(Object v, Class<?> ty) {
        if (v == null) {
            return null;
        }
        char p = primOf(ty);
        if (p == 0) {
            return v;
        }
        long l;
        double d;
        if (v instanceof Character c) {
            l = c;
            d = c;
        } else if (v instanceof Number num) {
            l = num.longValue();
            d = num.doubleValue();
        } else {
            return v;
        }
        return switch (p) {
            case 'B' -> (byte) l;
            case 'S' -> (short) l;
            case 'C' -> (char) l;
            case 'I' -> (int) l;
            case 'J' -> l;
            case 'F' -> (v instanceof Float f) ? f : (float) d;
            case 'D' -> (v instanceof Float f) ? (double) f : d;
            default -> v;
        };
    }

    /** The descriptor letter of a numeric or char type, primitive or boxed; 0 for others. */
    static char primOf(Class<?> c) {
        if (c == int.class || c == Integer.class) return 'I';
        if (c == long.class || c == Long.class) return 'J';
        if (c == short.class || c == Short.class) return 'S';
        if (c == byte.class || c == Byte.class) return 'B';
        if (c == char.class || c == Character.class) return 'C';
        if (c == float.class || c == Float.class) return 'F';
        if (c == double.class || c == Double.class) return 'D';
        return 0;
    }

    private boolean malformed(int i, String why) {
        return flagged(i, Outcomes.MALFORMED, why);
    }

    /** Statement i ends with a pseudo-exception of jforge's own; returns false. */
    boolean flagged(int i, String cls, String why) {
        vals[i] = null;
        outcomes.flagged(cls, why);
        return false;
    }

    private boolean exception(int i, Throwable t) {
        vals[i] = null;
        outcomes.exception(t);
        return false;
    }
}
