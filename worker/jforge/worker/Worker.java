package jforge.worker;

import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.MappedByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static jforge.worker.Proto.*;

/** Serves requests: op registration, sequence batches, JDK class bytes. See Main. Constants: Proto. */
final class Worker {
    static final int MAX_STRING = 10_000;
    static final int MAX_MESSAGE = 500;
    static final int MAX_PAIRS = 64;

    static final String MALFORMED = "jforge.MalformedSequence";
    /** A call printing more than this is reported as jforge.ExcessiveOutput. */
    static final long MAX_OUTPUT = 1 << 20;
    static final String EXCESSIVE_OUTPUT = "jforge.ExcessiveOutput";

    final SocketChannel ch;
    final MappedByteBuffer pm;
    final long limitNanos;
    final PrintStream realErr;
    final ClassLoader loader = ClassLoader.getSystemClassLoader();

    final Buf in = new Buf(1 << 16);
    final Buf out = new Buf(1 << 16);
    /** Outcomes of the current sequence (the part of the RESULT frame mirrored into pm). */
    final Buf outc = new Buf(1 << 12);
    final Buf tail = new Buf(1 << 10);

    Op[] ops = new Op[256];
    int nops;
    final ArrayList<String> strings = new ArrayList<>();
    final ArrayList<Class<?>> stringClasses = new ArrayList<>();
    final HashMap<String, Integer> classIds = new HashMap<>();
    final HashMap<Class<?>, Boolean> overridesEquals = new HashMap<>();
    final HashMap<Class<?>, String> publicNames = new HashMap<>();

    // watchdog state
    final Object lock = new Object();
    volatile boolean inCall;
    volatile long callStart;
    int epoch;
    boolean recording = true;

    // thread leak detection
    final Set<Thread> initialThreads = new HashSet<>();
    int threadBaseline;

    // sequence being executed
    Object[] vals = new Object[64];
    boolean[] isRef = new boolean[64];
    Stmt[] stmts = new Stmt[64];
    int[] cv = new int[16];
    int[] obsStmt = new int[16];
    /** Exhaustive prototype reuse: candidates of this run are held under this id (0: none). */
    int retain;
    int[] obsOp = new int[16];

    static final class Op {
        int kind;
        Constructor<?> ctor;
        Method method;
        Field field;
        int nparams;
        boolean voidRet;
        boolean primRet;
    }

    static final class Stmt {
        int kind; // 0 call, 1 lit, 2 array, 3 copy of a prototype (op = its id; exhaustive)
        int op;
        int[] args = new int[8];
        int nargs;
        int ty;
        Object lit;
        String enumClass;
        String enumName;
    }

    static final class Fatal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int marker;

        Fatal(int marker) {
            super(null, null, false, false);
            this.marker = marker;
        }
    }

    Worker(SocketChannel ch, MappedByteBuffer pm, long timeoutMs, PrintStream realErr) {
        this.ch = ch;
        this.pm = pm;
        this.limitNanos = timeoutMs * 1_000_000L;
        this.realErr = realErr;
    }

    void serve() throws Exception {
        Thread wd = new Thread(this::watchdog, "jforge-watchdog");
        wd.setDaemon(true);
        wd.setPriority(Thread.MAX_PRIORITY);
        wd.start();
        for (Thread t : allThreads()) {
            if (!t.isDaemon()) {
                initialThreads.add(t);
            }
        }
        threadBaseline = Thread.activeCount();

        out.reset();
        out.i32(0);
        out.u8(HELLO);
        out.i32(MAGIC);
        out.u16(VERSION);
        out.i64(ProcessHandle.current().pid());
        Main.writeFully(ch, out);

        while (Main.readFrame(ch, in)) {
            int tag = in.ru8();
            switch (tag) {
                case REGISTER -> register();
                case EXEC -> exec();
                case CLASS_BYTES -> classBytes();
                case LIST_CLASSES -> listClasses();
                case SHUTDOWN -> {
                    return;
                }
                default -> throw new IllegalStateException("unknown request " + tag);
            }
        }
    }

    // ---------------------------------------------------------------- watchdog

    void watchdog() {
        long periodMs = Math.max(5, Math.min(100, limitNanos / 1_000_000L / 10));
        while (true) {
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                // keep watching
            }
            if (inCall && System.nanoTime() - callStart > limitNanos) {
                synchronized (lock) {
                    if (inCall && System.nanoTime() - callStart > limitNanos) {
                        pm.putInt(P_MARKER, M_TIMEOUT);
                        Runtime.getRuntime().halt(HALT_CODE);
                    }
                }
            }
        }
    }

    void begin(int stmt) {
        pm.putInt(P_STMT, stmt);
        pm.putInt(P_EPOCH, ++epoch);
        callStart = System.nanoTime();
        inCall = true;
    }

    void end() {
        synchronized (lock) {
            inCall = false;
        }
    }

    void crash(int marker, int stmt) {
        synchronized (lock) {
            pm.putInt(P_STMT, stmt);
            pm.putInt(P_MARKER, marker);
            Runtime.getRuntime().halt(HALT_CODE);
        }
    }

    /** Rethrows OOM and stack overflow as Fatal so that they are never reported as values. */
    static void checkFatal(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                throw new Fatal(M_OOM);
            }
            if (c instanceof StackOverflowError) {
                throw new Fatal(M_SOE);
            }
            if (c.getCause() == c) {
                break;
            }
        }
    }

    // ---------------------------------------------------------------- registration

    void register() throws Exception {
        int first = in.ri32();
        int count = in.ri32();
        if (first != nops) {
            throw new IllegalStateException("register: expected first id " + nops + ", got " + first);
        }
        out.reset();
        out.i32(0);
        out.u8(REGISTERED);
        int countPos = out.n;
        out.i32(0);
        int failures = 0;
        for (int i = 0; i < count; i++) {
            int kind = in.ru8();
            String cls = in.rstr();
            String name = in.rstr();
            String desc = in.rstr();
            Op op = null;
            String err = null;
            try {
                op = resolve(kind, cls, name, desc);
            } catch (Throwable t) {
                try {
                    checkFatal(t);
                } catch (Fatal f) {
                    err = "out of memory or stack while loading";
                }
                if (err == null) {
                    err = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
                }
            }
            if (nops == ops.length) {
                ops = Arrays.copyOf(ops, nops * 2);
            }
            ops[nops++] = op;
            if (op == null) {
                failures++;
                out.i32(first + i);
                out.str(err);
            }
        }
        int save = out.n;
        out.n = countPos;
        out.i32(failures);
        out.n = save;
        Main.writeFully(ch, out);
    }

    Op resolve(int kind, String cls, String name, String desc) throws Exception {
        Class<?> c = Class.forName(cls, false, loader);
        Op op = new Op();
        op.kind = kind;
        int[] pos = {0};
        if (kind == OP_CTOR || kind == OP_METHOD || kind == OP_SMETHOD) {
            if (desc.isEmpty() || desc.charAt(0) != '(') {
                throw new IllegalArgumentException("bad method descriptor " + desc);
            }
            pos[0] = 1;
            List<Class<?>> ps = new ArrayList<>();
            while (pos[0] < desc.length() && desc.charAt(pos[0]) != ')') {
                ps.add(typeOf(desc, pos));
            }
            pos[0]++;
            Class<?>[] params = ps.toArray(new Class<?>[0]);
            Class<?> ret = typeOf(desc, pos);
            op.nparams = params.length;
            op.voidRet = ret == void.class;
            op.primRet = ret.isPrimitive() && ret != void.class;
            if (kind == OP_CTOR) {
                op.ctor = c.getDeclaredConstructor(params);
                op.voidRet = false;
                op.primRet = false;
                trySetAccessible(op.ctor);
            } else {
                Method m = findMethod(c, name, params, ret);
                if (m == null) {
                    throw new NoSuchMethodException(cls + "." + name + desc);
                }
                if (Modifier.isStatic(m.getModifiers()) != (kind == OP_SMETHOD)) {
                    throw new IllegalArgumentException("static/instance mismatch for " + cls + "." + name);
                }
                op.method = m;
                trySetAccessible(m);
            }
        } else {
            Class<?> ft = typeOf(desc, pos);
            Field f = findField(c, name, ft);
            if (f == null) {
                throw new NoSuchFieldException(cls + "." + name + ":" + desc);
            }
            boolean st = kind == OP_SFGET || kind == OP_SFSET;
            if (Modifier.isStatic(f.getModifiers()) != st) {
                throw new IllegalArgumentException("static/instance mismatch for " + cls + "." + name);
            }
            op.field = f;
            op.nparams = (kind == OP_FSET || kind == OP_SFSET) ? 1 : 0;
            op.voidRet = kind == OP_FSET || kind == OP_SFSET;
            op.primRet = !op.voidRet && ft.isPrimitive();
            trySetAccessible(f);
        }
        return op;
    }

    static void trySetAccessible(java.lang.reflect.AccessibleObject o) {
        try {
            o.setAccessible(true);
        } catch (RuntimeException e) {
            // not opened to us: public members of exported packages still work
        }
    }

    static Method findMethod(Class<?> c, String name, Class<?>[] ps, Class<?> ret) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Method m = declared(k, name, ps, ret);
            if (m != null) {
                return m;
            }
        }
        ArrayList<Class<?>> todo = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        Set<Class<?>> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Class<?> k = todo.remove(0);
            if (!seen.add(k)) {
                continue;
            }
            Method m = declared(k, name, ps, ret);
            if (m != null) {
                return m;
            }
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        return null;
    }

    static Method declared(Class<?> k, String name, Class<?>[] ps, Class<?> ret) {
        for (Method m : k.getDeclaredMethods()) {
            if (m.getName().equals(name) && m.getReturnType() == ret
                    && Arrays.equals(m.getParameterTypes(), ps)) {
                return m;
            }
        }
        return null;
    }

    static Field findField(Class<?> c, String name, Class<?> type) {
        ArrayList<Class<?>> todo = new ArrayList<>();
        todo.add(c);
        Set<Class<?>> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Class<?> k = todo.remove(0);
            if (!seen.add(k)) {
                continue;
            }
            for (Field f : k.getDeclaredFields()) {
                if (f.getName().equals(name) && f.getType() == type) {
                    return f;
                }
            }
            if (k.getSuperclass() != null) {
                todo.add(k.getSuperclass());
            }
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        return null;
    }

    Class<?> typeOf(String d, int[] pos) throws ClassNotFoundException {
        char ch = d.charAt(pos[0]);
        switch (ch) {
            case 'Z': pos[0]++; return boolean.class;
            case 'B': pos[0]++; return byte.class;
            case 'C': pos[0]++; return char.class;
            case 'S': pos[0]++; return short.class;
            case 'I': pos[0]++; return int.class;
            case 'J': pos[0]++; return long.class;
            case 'F': pos[0]++; return float.class;
            case 'D': pos[0]++; return double.class;
            case 'V': pos[0]++; return void.class;
            case 'L': {
                int semi = d.indexOf(';', pos[0]);
                if (semi < 0) {
                    throw new ClassNotFoundException("bad descriptor " + d);
                }
                String n = d.substring(pos[0] + 1, semi).replace('/', '.');
                pos[0] = semi + 1;
                return Class.forName(n, false, loader);
            }
            case '[': {
                pos[0]++;
                Class<?> e = typeOf(d, pos);
                return Array.newInstance(e, 0).getClass();
            }
            default:
                throw new ClassNotFoundException("bad descriptor " + d);
        }
    }

    // ---------------------------------------------------------------- execution

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

    Object readValue(Buf b, Stmt s) {
        int t = b.ru8();
        switch (t) {
            case 0: return null;
            case 1: return b.ru8() != 0;
            case 2: return (byte) b.ru8();
            case 3: return (short) b.ru16();
            case 4: return (char) b.ru16();
            case 5: return b.ri32();
            case 6: return b.ri64();
            case 7: return Float.intBitsToFloat(b.ri32());
            case 8: return Double.longBitsToDouble(b.ri64());
            case 9: return b.rstr();
            case 10:
                s.enumClass = b.rstr();
                s.enumName = b.rstr();
                return null;
            default:
                throw new IllegalStateException("bad value tag " + t);
        }
    }

    void exec() throws Exception {
        int nNew = in.ri32();
        for (int i = 0; i < nNew; i++) {
            strings.add(in.rstr());
            stringClasses.add(null);
        }
        int nseq = in.ri32();
        for (int q = 0; q < nseq; q++) {
            runSequence();
        }
    }

    void runSequence() throws Exception {
        int tag = in.ri32();
        int mode = in.ru8();
        if (mode == 3) {
            runBulk(tag);
            return;
        }
        int n = in.ri32();
        if (n < 0 || n > 1_000_000) {
            throw new IllegalStateException("bad statement count " + n);
        }
        if (vals.length < n) {
            vals = new Object[Math.max(n, vals.length * 2)];
            isRef = new boolean[vals.length];
        }
        for (int i = 0; i < n; i++) {
            Stmt s = stmt(i);
            s.kind = in.ru8();
            s.enumClass = null;
            s.lit = null;
            if (s.kind == 0 || s.kind == 2) {
                if (s.kind == 0) {
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
            } else if (s.kind == 1) {
                s.ty = in.ri32();
                s.lit = readValue(in, s);
            } else if (s.kind == 3) {
                s.op = in.ri32();
                s.nargs = 0;
            } else {
                throw new IllegalStateException("bad statement kind " + s.kind);
            }
        }
        int ncv = in.ri32();
        if (cv.length < ncv) {
            cv = new int[ncv];
        }
        for (int i = 0; i < ncv; i++) {
            cv[i] = in.ri32();
        }
        int nobs = in.ri32();
        if (obsStmt.length < nobs) {
            obsStmt = new int[nobs];
            obsOp = new int[nobs];
        }
        for (int i = 0; i < nobs; i++) {
            obsStmt[i] = in.ri32();
            obsOp[i] = in.ri32();
        }
        retain = 0;
        if (mode == 2) {
            // jforge exhaustive, prototype reuse (see Protos): retain id, promotions, forget
            retain = in.ri32();
            readPromotions();
        }
        resetProgress(n, tag);

        int cur = 0;
        cmpStart();
        try {
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                cur = i;
                int before = outc.n;
                begin(i);
                ok = execStmt(i, stmts[i]);
                end();
                record(before, i + 1);
                if (!ok) {
                    for (int j = i + 1; j < n; j++) {
                        vals[j] = null;
                        outc.u8(O_NOTRUN);
                    }
                    break;
                }
            }
            tail.reset();
            int violPos = tail.n;
            tail.i32(0);
            int nviol = 0;
            if (ok) {
                Object live = covPause();
                try {
                    nviol = contracts(n, ncv);
                } finally {
                    covResume(live);
                }
            }
            int save = tail.n;
            tail.n = violPos;
            tail.i32(nviol);
            tail.n = save;
            if (ok && mode == 1) {
                tail.i32(nobs);
                for (int i = 0; i < nobs; i++) {
                    observe(obsStmt[i], obsOp[i], n);
                }
            } else if (ok && mode == 2) {
                // ---- jforge exhaustive: canonical forms (op -1) and observers (see Canon)
                tail.i32(nobs);
                for (int i = 0; i < nobs; i++) {
                    if (obsOp[i] == -1) {
                        canon(obsStmt[i], n);
                    } else {
                        observe(obsStmt[i], obsOp[i], n);
                    }
                }
            } else {
                tail.i32(0);
            }
            cmpStop();
            cur = Math.max(0, n - 1);
            checkThreads(cur);
        } catch (Fatal f) {
            crash(f.marker, pm.getInt(P_STMT));
        } catch (OutOfMemoryError e) {
            crash(M_OOM, pm.getInt(P_STMT));
        } catch (StackOverflowError e) {
            crash(M_SOE, pm.getInt(P_STMT));
        }
        for (int i = 0; i < n; i++) {
            vals[i] = null;
            stmts[i].lit = null;
        }
        out.reset();
        out.i32(0);
        out.u8(RESULT);
        out.i32(tag);
        out.i32(n);
        out.bytes(outc.b, 0, outc.n);
        out.bytes(tail.b, 0, tail.n);
        appendCoverage();
        Main.writeFully(ch, out);
    }

    // ---------------------------------------------------------------- exhaustive, bulk

    /**
     * jforge exhaustive with prototype reuse: many one-call tasks in one request (mode 3).
     * Each task is "deep copy of prototype P as input POS, literals from the request's table
     * as the other inputs, call OP"; then the canonical forms of the copy and (optionally) of
     * the result, each held as a candidate under (retain base + task, value index). The
     * RESULT frame has one outcome per task (the call's) and a forms section. The progress
     * file sees one "statement" per task, so a crash or timeout blames the task that ran.
     *
     * <p>Layout: literal table (u32 n; per literal: u32 type string, value), u32 retain base,
     * promotions (u32 n; retain, value index, prototype id), u32 forget bound, u32 tasks; per
     * task: u32 prototype, u32 op, u8 position, u8 inputs, u32 literal per other input, u8
     * canon-result.
     */
    /** Prototype reuse (see Protos): the promotions and the forget bound of a request. */
    void readPromotions() {
        int np = in.ri32();
        for (int i = 0; i < np; i++) {
            Protos.promote(in.ri32(), in.ri32(), in.ri32());
        }
        Protos.forget(in.ri32());
    }

    /** Clears the progress file and the outcome buffer for a request of n statements/tasks. */
    void resetProgress(int n, int tag) {
        pm.putInt(P_MARKER, 0);
        pm.putInt(P_COUNT, 0);
        pm.putInt(P_BYTES, 0);
        pm.putInt(P_NSTMT, n);
        pm.putInt(P_STMT, 0);
        pm.putInt(P_TAG, tag);
        recording = true;
        outc.reset();
    }

    void runBulk(int tag) throws Exception {
        int nlit = in.ri32();
        if (nlit < 0 || nlit > 1_000_000) {
            throw new IllegalStateException("bad literal count " + nlit);
        }
        Object[] lits = new Object[nlit];
        Stmt tmp = new Stmt();
        for (int i = 0; i < nlit; i++) {
            tmp.enumClass = null;
            int ty = in.ri32();
            Object v = readValue(in, tmp);
            if (tmp.enumClass != null) {
                @SuppressWarnings({"unchecked", "rawtypes"})
                Object e = Enum.valueOf((Class) Class.forName(tmp.enumClass, true, loader), tmp.enumName);
                v = e;
            } else {
                v = convert(v, classOfString(ty));
            }
            lits[i] = v;
        }
        int base = in.ri32();
        readPromotions();
        int n = in.ri32();
        if (n < 0 || n > 10_000_000) {
            throw new IllegalStateException("bad task count " + n);
        }
        resetProgress(n, tag);
        tail.reset();
        int nforms = 0;
        long[] h = new long[2];
        try {
            for (int t = 0; t < n; t++) {
                int proto = in.ri32();
                int op = in.ri32();
                int pos = in.ru8();
                int k = in.ru8();
                if (vals.length < k + 1) {
                    vals = new Object[Math.max(k + 1, vals.length * 2)];
                    isRef = new boolean[vals.length];
                }
                for (int j = 0; j < k; j++) {
                    if (j == pos) {
                        continue;
                    }
                    int li = in.ri32();
                    vals[j] = li >= 0 && li < nlit ? lits[li] : null;
                    isRef[j] = vals[j] != null;
                }
                boolean canonResult = in.ru8() != 0;
                int before = outc.n;
                begin(t);
                Object copy;
                try {
                    copy = Protos.copyOf(proto);
                } catch (RuntimeException e) {
                    end();
                    flagged(0, Protos.COPY_FAILED, e.toString());
                    record(before, t + 1);
                    continue;
                }
                if (copy == null || pos >= k) {
                    end();
                    flagged(0, Protos.MISSING, "prototype " + proto + " is not held by this worker");
                    record(before, t + 1);
                    continue;
                }
                if (op == -1) {
                    // a contracts task: the single-object contracts on a copy of the prototype
                    // (a copy: equals/hashCode/toString may have side effects)
                    final int task = t;
                    int[] nv = new int[1];
                    single(copy, (c, d) -> {
                        tail.i32(task);
                        tail.u8(0);
                        tail.u8(5);
                        tail.u8(c);
                        tail.str(d);
                        nv[0]++;
                    });
                    end();
                    outc.u8(O_VOID);
                    record(before, t + 1);
                    nforms += nv[0];
                    continue;
                }
                vals[pos] = copy;
                isRef[pos] = true;
                Stmt s = stmt(k);
                s.kind = 0;
                s.op = op;
                if (s.args.length < k) {
                    s.args = new int[Math.max(k, s.args.length * 2)];
                }
                for (int j = 0; j < k; j++) {
                    s.args[j] = j;
                }
                s.nargs = k;
                boolean ok = call(k, s);
                end();
                record(before, t + 1);
                if (ok) {
                    nforms += bulkForm(t, 0, copy, base + t, h);
                    if (canonResult) {
                        nforms += bulkForm(t, 1, vals[k], base + t, h);
                    }
                }
                for (int j = 0; j <= k; j++) {
                    vals[j] = null;
                }
            }
            checkThreads(Math.max(0, n - 1));
        } catch (Fatal f) {
            crash(f.marker, pm.getInt(P_STMT));
        } catch (OutOfMemoryError e) {
            crash(M_OOM, pm.getInt(P_STMT));
        } catch (StackOverflowError e) {
            crash(M_SOE, pm.getInt(P_STMT));
        }
        out.reset();
        out.i32(0);
        out.u8(RESULT);
        out.i32(tag);
        out.i32(n);
        out.bytes(outc.b, 0, outc.n);
        out.i32(0);
        out.i32(0);
        out.u8(FORMS_SECTION);
        out.i32(nforms);
        out.bytes(tail.b, 0, tail.n);
        Main.writeFully(ch, out);
    }

    /**
     * One entry of the forms section: u32 task, u8 value index, u8 kind (0: 128-bit hash, 1:
     * text, 2: out of scope, 3: null, 4: error text; 5, written by contracts tasks: u8
     * contract code and detail text), then the hash or text, then (kinds 0/1) the runtime
     * class. Returns 1.
     */
    int bulkForm(int task, int which, Object v, int retain, long[] h) {
        tail.i32(task);
        tail.u8(which);
        if (v == null) {
            tail.u8(3);
            return 1;
        }
        int r;
        try {
            r = Canon.TEXT ? 1 : Canon.hashOf(v, h);
        } catch (RuntimeException e) {
            tail.u8(4);
            tail.str("jforge.CanonFailed: " + e);
            return 1;
        }
        if (r == 1) {
            String form = Canon.of(v);
            if (form.equals(Canon.OUT_OF_SCOPE)) {
                tail.u8(2);
                return 1;
            }
            tail.u8(1);
            tail.str(form);
        } else if (r == 2) {
            tail.u8(2);
            return 1;
        } else {
            tail.u8(0);
            tail.i64(h[0]);
            tail.i64(h[1]);
        }
        putString(tail, v.getClass().getName());
        Protos.retain(retain, which, v);
        return 1;
    }

    // ---------------------------------------------------------------- coverage

    /** Number of probes when the classes under test are instrumented (jforge.cov.probes), else -1. */
    static final int COV_PROBES = Integer.getInteger("jforge.cov.probes", -1);
    static java.lang.invoke.MethodHandle covDrain;
    static boolean covBroken;
    static final int[] NO_IDS = new int[0];
    static java.lang.invoke.MethodHandle covPauseH;
    static java.lang.invoke.MethodHandle covResumeH;

    /**
     * Pauses coverage recording around the worker's own calls into the code under test
     * (fingerprint hashCode, contract checks): a sequence's coverage is then what a test
     * written from it runs. Returns the token for {@link #covResume}; null without coverage.
     */
    Object covPause() {
        if (COV_PROBES < 0 || covBroken) {
            return null;
        }
        try {
            if (covPauseH == null) {
                Class<?> c = Class.forName("jforge.rt.Cov", true, loader);
                java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
                covPauseH = l.findStatic(c, "pause", java.lang.invoke.MethodType.methodType(boolean[].class));
                covResumeH = l.findStatic(c, "resume",
                        java.lang.invoke.MethodType.methodType(void.class, boolean[].class));
            }
            return (boolean[]) covPauseH.invokeExact();
        } catch (Throwable t) {
            covBroken = true;
            realErr.println("jforge worker: coverage runtime unavailable: " + t);
            return null;
        }
    }

    void covResume(Object live) {
        if (live == null || covResumeH == null) {
            return;
        }
        try {
            covResumeH.invokeExact((boolean[]) live);
        } catch (Throwable t) {
            covBroken = true;
        }
    }

    /**
     * With coverage on, appends the probes hit since the previous sequence: the marker, a
     * varint count, then varint deltas of the increasing ids. Without coverage nothing is
     * written, so RESULT frames stay byte-identical.
     */
    void appendCoverage() throws Exception {
        if (COV_PROBES < 0) {
            return;
        }
        int[] ids = NO_IDS;
        if (covDrain == null && !covBroken) {
            try {
                // A full-power lookup: with JDK classes patched, jforge.rt lives in java.base and
                // is exported to the unnamed module only.
                Class<?> c = Class.forName("jforge.rt.Cov", true, loader);
                covDrain = java.lang.invoke.MethodHandles.lookup().findStatic(c, "drain",
                        java.lang.invoke.MethodType.methodType(int[].class, int.class));
            } catch (Throwable t) {
                covBroken = true;
                realErr.println("jforge worker: coverage runtime unavailable: " + t);
            }
        }
        if (covDrain != null) {
            try {
                ids = (int[]) covDrain.invokeExact(COV_PROBES);
            } catch (Throwable t) {
                ids = NO_IDS;
            }
        }
        out.u8(COVERAGE_SECTION);
        varint(ids.length);
        int prev = 0;
        for (int id : ids) {
            varint(id - prev);
            prev = id;
        }
        // Comparison logging: operands compared while the sequence ran (see cmpStart).
        String[] cmp = pendingStrs;
        long[] nums = pendingNums;
        pendingStrs = NO_STRINGS;
        pendingNums = NO_LONGS;
        if (cmp.length > 0) {
            out.u8(COMPARED_SECTION);
            varint(cmp.length);
            for (String x : cmp) {
                out.str(x);
            }
        }
        // ... and int/long operands of if_icmp* and lcmp, in pairs.
        if (nums.length > 0) {
            out.u8(COMPARED_NUMS_SECTION);
            varint(nums.length);
            for (long x : nums) {
                long z = (x << 1) ^ (x >> 63); // zigzag
                while ((z & ~0x7FL) != 0) {
                    out.u8((int) ((z & 0x7F) | 0x80));
                    z >>>= 7;
                }
                out.u8((int) z);
            }
        }
    }

    String[] pendingStrs = NO_STRINGS;
    long[] pendingNums = NO_LONGS;

    /**
     * Starts the comparison log of a sequence: discards what was logged since the last
     * sequence (request decoding and the worker's own bookkeeping may run instrumented JDK
     * classes, with values that depend on the worker's history, which would make results
     * differ between 1 and 2 workers).
     */
    void cmpStart() {
        if (COV_PROBES < 0) {
            return;
        }
        pendingStrs = NO_STRINGS;
        pendingNums = NO_LONGS;
        drainCmp();
    }

    /** Ends the comparison log of a sequence: keeps what was logged for the RESULT frame. */
    void cmpStop() {
        if (COV_PROBES < 0) {
            return;
        }
        drainCmp();
    }

    private void drainCmp() {
        if (covCompared == null && covNums == null && !cmpBroken) {
            try {
                Class<?> c = Class.forName("jforge.rt.Cov", true, loader);
                java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
                covCompared = l.findStatic(c, "drainCompared",
                        java.lang.invoke.MethodType.methodType(String[].class));
                covNums = l.findStatic(c, "drainNums",
                        java.lang.invoke.MethodType.methodType(long[].class));
            } catch (Throwable t) {
                cmpBroken = true; // no runtime, or an older one: no comparison logging
            }
        }
        if (covCompared == null || covNums == null) {
            return;
        }
        try {
            pendingStrs = (String[]) covCompared.invokeExact();
            pendingNums = (long[]) covNums.invokeExact();
        } catch (Throwable t) {
            pendingStrs = NO_STRINGS;
            pendingNums = NO_LONGS;
        }
    }

    static java.lang.invoke.MethodHandle covNums;
    static boolean cmpBroken;
    static final long[] NO_LONGS = new long[0];
    static java.lang.invoke.MethodHandle covCompared;
    static final String[] NO_STRINGS = new String[0];

    void varint(int v) {
        while ((v & ~0x7F) != 0) {
            out.u8((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.u8(v);
    }

    /** Mirrors the outcome bytes written since {@code from} into the progress file. */
    void record(int from, int count) {
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

    Class<?> classOfString(int id) throws ClassNotFoundException {
        Class<?> c = stringClasses.get(id);
        if (c == null) {
            c = typeOf(strings.get(id), new int[] {0});
            stringClasses.set(id, c);
        }
        return c;
    }

    /** Runs one statement and writes its outcome; false when the sequence must stop. */
    boolean execStmt(int i, Stmt s) throws Exception {
        for (int k = 0; k < s.nargs; k++) {
            if (s.kind != 1 && (s.args[k] < 0 || s.args[k] >= i)) {
                return malformed(i, "argument " + k + " refers to statement " + s.args[k]);
            }
        }
        try {
            switch (s.kind) {
                case 3 -> {
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
                    observeResult(v, false);
                    return true;
                }
                case 1 -> {
                    Class<?> ty = classOfString(s.ty);
                    Object v;
                    if (s.enumClass != null) {
                        @SuppressWarnings({"unchecked", "rawtypes"})
                        Object e = Enum.valueOf((Class) Class.forName(s.enumClass, true, loader), s.enumName);
                        v = e;
                    } else {
                        v = convert(s.lit, ty);
                        if (v == null && ty.isPrimitive()) {
                            return malformed(i, "null literal of primitive type");
                        }
                    }
                    vals[i] = v;
                    isRef[i] = !ty.isPrimitive();
                    observeResult(v, false);
                    return true;
                }
                case 2 -> {
                    Class<?> et = classOfString(s.ty);
                    Object arr = Array.newInstance(et, s.nargs);
                    for (int k = 0; k < s.nargs; k++) {
                        Array.set(arr, k, vals[s.args[k]]);
                    }
                    vals[i] = arr;
                    isRef[i] = true;
                    observeResult(arr, false);
                    return true;
                }
                default -> {
                    return call(i, s);
                }
            }
        } catch (IllegalArgumentException | ClassNotFoundException | NoSuchFieldException e) {
            return malformed(i, e.toString());
        } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
            checkFatal(e);
            return exception(i, e);
        }
    }

    boolean call(int i, Stmt s) throws Exception {
        if (s.op < 0 || s.op >= nops || ops[s.op] == null) {
            return malformed(i, "operation " + s.op + " is not registered or did not resolve");
        }
        Op op = ops[s.op];
        boolean recv = op.kind == OP_METHOD || op.kind == OP_FGET || op.kind == OP_FSET;
        int off = recv ? 1 : 0;
        if (s.nargs != op.nparams + off) {
            return malformed(i, "operation takes " + (op.nparams + off) + " inputs, got " + s.nargs);
        }
        Object r = null;
        Object self = recv ? vals[s.args[0]] : null;
        long printedBefore = Main.CountingSink.written;
        if (recv && self == null) {
            vals[i] = null;
            return exception(i, new NullPointerException());
        }
        try {
            switch (op.kind) {
                case OP_CTOR -> r = op.ctor.newInstance(argsOf(s, 0, op.nparams));
                case OP_METHOD -> r = op.method.invoke(self, argsOf(s, 1, op.nparams));
                case OP_SMETHOD -> r = op.method.invoke(null, argsOf(s, 0, op.nparams));
                case OP_FGET -> r = op.field.get(self);
                case OP_SFGET -> r = op.field.get(null);
                case OP_FSET -> op.field.set(self, vals[s.args[1]]);
                case OP_SFSET -> op.field.set(null, vals[s.args[0]]);
                default -> {
                    return malformed(i, "bad op kind");
                }
            }
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            checkFatal(c);
            vals[i] = null;
            return exception(i, c);
        } catch (IllegalAccessException | InstantiationException | IllegalArgumentException e) {
            return malformed(i, e.toString());
        }
        long printed = Main.CountingSink.written - printedBefore;
        if (printed > MAX_OUTPUT) {
            return flagged(i, EXCESSIVE_OUTPUT, "printed " + printed + " bytes to System.out/System.err");
        }
        vals[i] = r;
        isRef[i] = !op.primRet;
        observeResult(r, op.voidRet);
        return true;
    }

    Object[] argsOf(Stmt s, int from, int n) {
        Object[] a = new Object[n];
        for (int k = 0; k < n; k++) {
            a[k] = vals[s.args[from + k]];
        }
        return a;
    }

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

    boolean malformed(int i, String why) {
        return flagged(i, MALFORMED, why);
    }

    /** A pseudo-exception outcome jforge itself raises (class names under `jforge.`). */
    boolean flagged(int i, String cls, String why) {
        vals[i] = null;
        outc.u8(O_EXC);
        putString(outc, cls);
        putString(outc, cls);
        outc.u8(1);
        outc.str(truncate(why));
        return false;
    }

    boolean exception(int i, Throwable t) {
        vals[i] = null;
        outc.u8(O_EXC);
        Class<?> c = t.getClass();
        putString(outc, c.getName());
        putString(outc, publicName(c));
        String msg = null;
        try {
            msg = t.getMessage();
        } catch (Throwable e) {
            checkFatal(e);
        }
        if (msg == null) {
            outc.u8(0);
        } else {
            outc.u8(1);
            outc.str(truncate(msg));
        }
        return false;
    }

    static String truncate(String s) {
        return s.length() > MAX_MESSAGE ? s.substring(0, MAX_MESSAGE) : s;
    }

    String publicName(Class<?> c) {
        String p = publicNames.get(c);
        if (p == null) {
            Class<?> k = c;
            while (k != null && !allPublic(k)) {
                k = k.getSuperclass();
            }
            p = k == null ? "java.lang.Throwable" : k.getName();
            publicNames.put(c, p);
        }
        return p;
    }

    static boolean allPublic(Class<?> k) {
        for (Class<?> x = k; x != null; x = x.getEnclosingClass()) {
            if (!Modifier.isPublic(x.getModifiers()) || x.isAnonymousClass() || x.isLocalClass()) {
                return false;
            }
        }
        Module m = k.getModule();
        return !m.isNamed() || m.isExported(k.getPackageName());
    }

    /**
     * Worker string table (class names): returns the id, or -1-id when the name is new (the
     * caller then sends the id followed by the string).
     */
    int stringId(String name) {
        Integer id = classIds.get(name);
        if (id != null) {
            return id;
        }
        int nid = classIds.size();
        classIds.put(name, nid);
        return -1 - nid;
    }

    void putString(Buf b, String name) {
        int id = stringId(name);
        if (id < 0) {
            b.i32(-1 - id);
            b.str(name);
        } else {
            b.i32(id);
        }
    }

    void observeResult(Object r, boolean isVoid) {
        if (isVoid) {
            outc.u8(O_VOID);
            return;
        }
        if (r == null) {
            outc.u8(O_NULL);
            return;
        }
        int mark = outc.n;
        outc.u8(O_VALUE);
        if (writeValue(outc, r)) {
            return;
        }
        outc.n = mark;
        outc.u8(O_OBJECT);
        Class<?> c = r.getClass();
        putString(outc, c.getName());
        if (overrides(c)) {
            int h;
            Object live = covPause();
            try {
                h = r.hashCode();
            } catch (Throwable t) {
                checkFatal(t);
                outc.u8(0);
                return;
            } finally {
                covResume(live);
            }
            outc.u8(1);
            outc.i64(mix(((long) c.getName().hashCode() << 32) ^ (h & 0xffffffffL)));
        } else {
            outc.u8(0);
        }
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    boolean overrides(Class<?> c) {
        Boolean b = overridesEquals.get(c);
        if (b == null) {
            boolean o = false;
            if (!c.isArray()) {
                try {
                    o = c.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
                } catch (NoSuchMethodException | RuntimeException e) {
                    o = false;
                }
            }
            b = o;
            overridesEquals.put(c, b);
        }
        return b;
    }

    static boolean wellFormed(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return false;
                }
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** Primitive/boxed/String/enum values; false (nothing written) for anything else. */
    static boolean writeValue(Buf b, Object v) {
        Class<?> c = v.getClass();
        if (c == Integer.class) {
            b.u8(5);
            b.i32((Integer) v);
        } else if (c == String.class) {
            String s = (String) v;
            if (s.length() > MAX_STRING || !wellFormed(s)) {
                return false;
            }
            b.u8(9);
            b.str(s);
        } else if (c == Boolean.class) {
            b.u8(1);
            b.u8(((Boolean) v) ? 1 : 0);
        } else if (c == Long.class) {
            b.u8(6);
            b.i64((Long) v);
        } else if (c == Double.class) {
            b.u8(8);
            b.i64(Double.doubleToRawLongBits((Double) v));
        } else if (c == Float.class) {
            b.u8(7);
            b.i32(Float.floatToRawIntBits((Float) v));
        } else if (c == Character.class) {
            b.u8(4);
            b.u16((Character) v);
        } else if (c == Byte.class) {
            b.u8(2);
            b.u8((Byte) v);
        } else if (c == Short.class) {
            b.u8(3);
            b.u16((Short) v);
        } else if (v instanceof Enum<?> e) {
            b.u8(10);
            b.str(e.getDeclaringClass().getName());
            b.str(e.name());
        } else {
            return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- contracts and observers

    void violation(int contract, int a, int b, String detail) {
        tail.u8(contract);
        tail.i32(a);
        tail.i32(b);
        tail.str(truncate(detail));
    }

    int contracts(int n, int ncv) {
        int nviol = 0;
        int pairs = 0;
        for (int q = 0; q < ncv; q++) {
            int a = cv[q];
            if (a < 0 || a >= n || vals[a] == null || !isRef[a]) {
                continue;
            }
            Object o = vals[a];
            begin(a);
            final int at = a;
            nviol += single(o, (c, d) -> violation(c, at, -1, d));
            end();
            for (int b = 0; b < n && pairs < MAX_PAIRS; b++) {
                Object p = vals[b];
                if (b == a || p == null || !isRef[b]) {
                    continue;
                }
                pairs++;
                begin(a);
                nviol += pair(a, o, b, p);
                end();
            }
        }
        return nviol;
    }

    /** Receives the violations of {@link #single}: contract code, detail. */
    interface Violations {
        void add(int contract, String detail);
    }

    /**
     * The contracts on one object: equals reflexive and false for null, hashCode and toString
     * do not throw, compareTo reflexive. Returns the number of violations.
     */
    int single(Object o, Violations out) {
        int nviol = 0;
        try {
            if (!o.equals(o)) {
                out.add(C_EQUALS_REFLEXIVE, "x.equals(x) is false");
                nviol++;
            }
        } catch (Throwable t) {
            checkFatal(t);
        }
        try {
            if (o.equals(null)) {
                out.add(C_EQUALS_NULL, "x.equals(null) is true");
                nviol++;
            }
        } catch (Throwable t) {
            checkFatal(t);
        }
        try {
            o.hashCode();
        } catch (Throwable t) {
            checkFatal(t);
            out.add(C_HASHCODE_THROWS, t.getClass().getName());
            nviol++;
        }
        try {
            o.toString();
        } catch (Throwable t) {
            checkFatal(t);
            out.add(C_TOSTRING_THROWS, t.getClass().getName());
            nviol++;
        }
        if (o instanceof Comparable<?>) {
            try {
                @SuppressWarnings({"unchecked", "rawtypes"})
                int r = ((Comparable) o).compareTo(o);
                if (r != 0) {
                    out.add(C_COMPARETO_REFLEXIVE, "x.compareTo(x) is " + r);
                    nviol++;
                }
            } catch (Throwable t) {
                checkFatal(t);
            }
        }
        return nviol;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    int pair(int a, Object x, int b, Object y) {
        int nviol = 0;
        boolean xy, yx;
        try {
            xy = x.equals(y);
            yx = y.equals(x);
            if (xy != yx) {
                violation(C_EQUALS_SYMMETRIC, a, b, "x.equals(y) is " + xy + " but y.equals(x) is " + yx);
                nviol++;
            }
            if (xy) {
                int hx = x.hashCode();
                int hy = y.hashCode();
                if (hx != hy) {
                    violation(C_EQUALS_HASHCODE, a, b, "x.equals(y) but hashCodes " + hx + " != " + hy);
                    nviol++;
                }
            }
        } catch (Throwable t) {
            checkFatal(t);
        }
        if (x.getClass() == y.getClass() && x instanceof Comparable) {
            try {
                int r1 = Integer.signum(((Comparable) x).compareTo(y));
                int r2 = Integer.signum(((Comparable) y).compareTo(x));
                if (r1 != -r2) {
                    violation(C_COMPARETO_ANTISYMMETRIC, a, b, "sgn(x.compareTo(y)) = " + r1 + ", sgn(y.compareTo(x)) = " + r2);
                    nviol++;
                }
            } catch (Throwable t) {
                checkFatal(t);
            }
        }
        return nviol;
    }

    /** jforge exhaustive: the canonical form of statement st's value, as a String value. */
    void canon(int st, int n) {
        tail.i32(st);
        tail.i32(-1);
        if (st < 0 || st >= n) {
            tail.u8(0);
            tail.str(MALFORMED);
            return;
        }
        String form;
        try {
            form = Canon.of(vals[st]);
        } catch (RuntimeException e) {
            tail.u8(0);
            tail.str("jforge.CanonFailed: " + e);
            return;
        }
        if (retain != 0 && !form.equals(Canon.OUT_OF_SCOPE) && !form.equals("null")) {
            Protos.retain(retain, st, vals[st]);
        }
        tail.u8(1);
        tail.u8(9);
        tail.str(form);
    }

    void observe(int st, int opId, int n) {
        tail.i32(st);
        tail.i32(opId);
        Op op = opId >= 0 && opId < nops ? ops[opId] : null;
        if (st < 0 || st >= n || op == null || op.kind != OP_METHOD || op.nparams != 0) {
            tail.u8(0);
            tail.str(MALFORMED);
            return;
        }
        Object self = vals[st];
        if (self == null) {
            tail.u8(0);
            tail.str("java.lang.NullPointerException");
            return;
        }
        begin(st);
        Object r;
        try {
            r = op.method.invoke(self);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            checkFatal(c);
            end();
            tail.u8(0);
            tail.str(c.getClass().getName());
            return;
        } catch (Throwable e) {
            checkFatal(e);
            end();
            tail.u8(0);
            tail.str(e instanceof IllegalArgumentException || e instanceof IllegalAccessException
                    ? MALFORMED : e.getClass().getName());
            return;
        }
        end();
        if (op.voidRet) {
            tail.u8(0);
            tail.str("jforge.NotAValue");
        } else if (r == null) {
            tail.u8(1);
            tail.u8(0);
        } else {
            int mark = tail.n;
            tail.u8(1);
            if (!writeValue(tail, r)) {
                tail.n = mark;
                tail.u8(0);
                tail.str("jforge.NotAValue");
            }
        }
    }

    // ---------------------------------------------------------------- threads

    static Thread[] allThreads() {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) {
            g = g.getParent();
        }
        Thread[] ts = new Thread[g.activeCount() * 2 + 16];
        int k = g.enumerate(ts, true);
        return Arrays.copyOf(ts, k);
    }

    void checkThreads(int blame) {
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
                crash(M_LEAKED_THREADS, blame);
            }
        }
        threadBaseline = Thread.activeCount();
    }

    // ---------------------------------------------------------------- JDK classes

    FileSystem jrt;

    FileSystem jrt() {
        if (jrt == null) {
            jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        }
        return jrt;
    }

    void classBytes() throws Exception {
        String name = in.rstr();
        out.reset();
        out.i32(0);
        out.u8(BYTES);
        int dot = name.lastIndexOf('.');
        String pkg = dot < 0 ? "" : name.substring(0, dot);
        byte[] found = null;
        Path pdir = jrt().getPath("/packages", pkg);
        if (!pkg.isEmpty() && Files.isDirectory(pdir)) {
            try (DirectoryStream<Path> mods = Files.newDirectoryStream(pdir)) {
                for (Path m : mods) {
                    Path p = jrt().getPath("/modules", m.getFileName().toString(),
                            name.replace('.', '/') + ".class");
                    if (Files.exists(p)) {
                        found = Files.readAllBytes(p);
                        break;
                    }
                }
            }
        }
        if (found == null) {
            out.u8(0);
        } else {
            out.u8(1);
            out.i32(found.length);
            out.bytes(found, 0, found.length);
        }
        Main.writeFully(ch, out);
    }

    void listClasses() throws Exception {
        String prefix = in.rstr();
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> pkgs = Files.newDirectoryStream(jrt().getPath("/packages"))) {
            for (Path pk : pkgs) {
                String pkg = pk.getFileName().toString();
                if (!(pkg.equals(prefix) || pkg.startsWith(prefix + "."))) {
                    continue;
                }
                try (DirectoryStream<Path> mods = Files.newDirectoryStream(pk)) {
                    for (Path m : mods) {
                        Path dir = jrt().getPath("/modules", m.getFileName().toString(), pkg.replace('.', '/'));
                        if (!Files.isDirectory(dir)) {
                            continue;
                        }
                        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                            for (Path f : files) {
                                String fn = f.getFileName().toString();
                                if (fn.endsWith(".class") && !fn.equals("module-info.class")
                                        && !fn.equals("package-info.class")) {
                                    names.add(pkg + "." + fn.substring(0, fn.length() - 6));
                                }
                            }
                        }
                    }
                }
            }
        }
        Collections.sort(names);
        out.reset();
        out.i32(0);
        out.u8(LIST);
        out.i32(names.size());
        for (String s : names) {
            out.str(s);
        }
        Main.writeFully(ch, out);
    }
}
