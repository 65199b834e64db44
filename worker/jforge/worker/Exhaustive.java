package jforge.worker;

import static jforge.worker.Proto.CANON_OP;
import static jforge.worker.Proto.FORMS_SECTION;
import static jforge.worker.Proto.FORM_ERROR;
import static jforge.worker.Proto.FORM_HASH;
import static jforge.worker.Proto.FORM_NULL;
import static jforge.worker.Proto.FORM_OUT_OF_SCOPE;
import static jforge.worker.Proto.FORM_TEXT;
import static jforge.worker.Proto.FORM_VIOLATION;
import static jforge.worker.Proto.M_OOM;
import static jforge.worker.Proto.M_SOE;
import static jforge.worker.Proto.O_VOID;
import static jforge.worker.Proto.STMT_CALL;
import static jforge.worker.Proto.V_STRING;

/**
 * The executor's extension for `jforge exhaustive`: canonical forms as observer entries
 * (EXEC mode MODE_CANON, observer op CANON_OP; the walk itself is Canon) and bulk requests
 * (MODE_BULK) of one-call tasks on deep copies of prototypes (held by Protos). Why a request
 * of its own: with prototype reuse a sequence costs one copy and one call whatever its length,
 * so thousands of tasks travel in one frame, and the RESULT frame carries one outcome per task
 * and a forms section instead of per-statement outcomes. The progress file sees one
 * "statement" per task, so a crash or timeout blames the task that ran.
 */
final class Exhaustive {
    private final Executor ex;
    private final Frames frames;
    private final Registry registry;
    private final Progress progress;
    private final Outcomes outcomes;
    private final Contracts contracts;
    private final Leaks leaks;
    /** Prototype reuse: candidates of the running request are held under this id (0: none). */
    int retain;

    Exhaustive(Executor ex, Frames frames, Registry registry, Progress progress, Outcomes outcomes,
            Contracts contracts, Leaks leaks) {
        this.ex = ex;
        this.frames = frames;
        this.registry = registry;
        this.progress = progress;
        this.outcomes = outcomes;
        this.contracts = contracts;
        this.leaks = leaks;
    }

    /** The canonical form of statement st's value (of n), as an observer entry's String value. */
    void canon(Object[] vals, int st, int n) {
        Buf tail = outcomes.tail;
        tail.i32(st);
        tail.i32(CANON_OP);
        if (st < 0 || st >= n) {
            tail.u8(0);
            tail.str(Outcomes.MALFORMED);
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
        tail.u8(V_STRING);
        tail.str(form);
    }

    /** Prototype reuse (see Protos): the promotions and the forget bound of a request. */
    void readPromotions(Buf in) {
        int np = in.ri32();
        for (int i = 0; i < np; i++) {
            Protos.promote(in.ri32(), in.ri32(), in.ri32());
        }
        Protos.forget(in.ri32());
    }

    /**
     * A bulk request (mode MODE_BULK). Each task is "deep copy of prototype P as input POS,
     * literals from the request's table as the other inputs, call OP"; then the canonical
     * forms of the copy and (optionally) of the result, each held as a candidate under
     * (retain base + task, value index). A task whose op is CANON_OP checks the single-object
     * contracts on a copy instead.
     *
     * <p>Layout: literal table (u32 n; per literal: u32 type string, value), u32 retain base,
     * promotions (u32 n; retain, value index, prototype id), u32 forget bound, u32 tasks; per
     * task: u32 prototype, u32 op, u8 position, u8 inputs, u32 literal per other input, u8
     * canon-result.
     */
    void runBulk(int tag) throws Exception {
        Buf in = frames.in;
        Object[] lits = readLiterals(in);
        int base = in.ri32();
        readPromotions(in);
        int n = in.ri32();
        if (n < 0 || n > 10_000_000) {
            throw new IllegalStateException("bad task count " + n);
        }
        progress.reset(n, tag);
        outcomes.outc.reset();
        outcomes.tail.reset();
        int nforms = 0;
        long[] h = new long[2];
        try {
            for (int t = 0; t < n; t++) {
                nforms += runTask(in, t, lits, base, h);
            }
            leaks.check(Math.max(0, n - 1));
        } catch (Fatal f) {
            progress.crash(f.marker, progress.stmt());
        } catch (OutOfMemoryError e) {
            progress.crash(M_OOM, progress.stmt());
        } catch (StackOverflowError e) {
            progress.crash(M_SOE, progress.stmt());
        }
        Buf out = frames.result(tag, n, outcomes.outc);
        out.i32(0);
        out.i32(0);
        out.u8(FORMS_SECTION);
        out.i32(nforms);
        out.bytes(outcomes.tail.b, 0, outcomes.tail.n);
        frames.send();
    }

    /** The literal table of a bulk request, converted to the types named. */
    private Object[] readLiterals(Buf in) throws ClassNotFoundException {
        int nlit = in.ri32();
        if (nlit < 0 || nlit > 1_000_000) {
            throw new IllegalStateException("bad literal count " + nlit);
        }
        Object[] lits = new Object[nlit];
        Executor.Stmt tmp = new Executor.Stmt();
        for (int i = 0; i < nlit; i++) {
            tmp.enumClass = null;
            int ty = in.ri32();
            Object v = Executor.readValue(in, tmp);
            if (tmp.enumClass != null) {
                v = ex.enumConstant(tmp);
            } else if (v instanceof Lambdas.Spec spec) {
                v = spec.make(registry.typeClass(ty));
            } else {
                v = Executor.convert(v, registry.typeClass(ty));
            }
            lits[i] = v;
        }
        return lits;
    }

    /** Task t of a bulk request; returns the number of entries it wrote to the forms section. */
    private int runTask(Buf in, int t, Object[] lits, int base, long[] h) throws Exception {
        int proto = in.ri32();
        int op = in.ri32();
        int pos = in.ru8();
        int k = in.ru8();
        ex.ensureValues(k + 1);
        Object[] vals = ex.vals;
        boolean[] isRef = ex.isRef;
        for (int j = 0; j < k; j++) {
            if (j == pos) {
                continue;
            }
            int li = in.ri32();
            vals[j] = li >= 0 && li < lits.length ? lits[li] : null;
            isRef[j] = vals[j] != null;
        }
        boolean canonResult = in.ru8() != 0;
        Buf outc = outcomes.outc;
        int before = outc.n;
        progress.begin(t);
        Object copy;
        try {
            copy = Protos.copyOf(proto);
        } catch (RuntimeException e) {
            progress.end();
            ex.flagged(0, Protos.COPY_FAILED, e.toString());
            progress.record(outc, before, t + 1);
            return 0;
        }
        if (copy == null || pos >= k) {
            progress.end();
            ex.flagged(0, Protos.MISSING, "prototype " + proto + " is not held by this worker");
            progress.record(outc, before, t + 1);
            return 0;
        }
        if (op == CANON_OP) {
            int nv = contractsTask(t, copy);
            progress.end();
            outc.u8(O_VOID);
            progress.record(outc, before, t + 1);
            return nv;
        }
        vals[pos] = copy;
        isRef[pos] = true;
        Executor.Stmt s = ex.stmt(k);
        s.kind = STMT_CALL;
        s.op = op;
        if (s.args.length < k) {
            s.args = new int[Math.max(k, s.args.length * 2)];
        }
        for (int j = 0; j < k; j++) {
            s.args[j] = j;
        }
        s.nargs = k;
        boolean ok = ex.call(k, s);
        progress.end();
        progress.record(outc, before, t + 1);
        int nforms = 0;
        if (ok) {
            nforms += form(t, 0, copy, base + t, h);
            if (canonResult) {
                nforms += form(t, 1, ex.vals[k], base + t, h);
            }
        }
        for (int j = 0; j <= k; j++) {
            ex.vals[j] = null;
        }
        return nforms;
    }

    /**
     * A contracts task: the single-object contracts on a copy of the prototype (a copy:
     * equals/hashCode/toString may have side effects); one forms entry per violation.
     */
    private int contractsTask(int task, Object copy) {
        Buf tail = outcomes.tail;
        int[] nv = new int[1];
        contracts.single(copy, (c, d, t) -> {
            tail.i32(task);
            tail.u8(0);
            tail.u8(FORM_VIOLATION);
            tail.u8(c);
            tail.str(d);
            nv[0]++;
        });
        return nv[0];
    }

    /**
     * One entry of the forms section: u32 task, u8 value index, u8 kind (Proto.FORM_*), then
     * the hash or text, then (hash and text) the runtime class. Returns 1.
     */
    private int form(int task, int which, Object v, int retain, long[] h) {
        Buf tail = outcomes.tail;
        tail.i32(task);
        tail.u8(which);
        if (v == null) {
            tail.u8(FORM_NULL);
            return 1;
        }
        int r;
        try {
            r = Canon.TEXT ? 1 : Canon.hashOf(v, h);
        } catch (RuntimeException e) {
            tail.u8(FORM_ERROR);
            tail.str("jforge.CanonFailed: " + e);
            return 1;
        }
        if (r == 1) {
            String form = Canon.of(v);
            if (form.equals(Canon.OUT_OF_SCOPE)) {
                tail.u8(FORM_OUT_OF_SCOPE);
                return 1;
            }
            tail.u8(FORM_TEXT);
            tail.str(form);
        } else if (r == 2) {
            tail.u8(FORM_OUT_OF_SCOPE);
            return 1;
        } else {
            tail.u8(FORM_HASH);
            tail.i64(h[0]);
            tail.i64(h[1]);
        }
        outcomes.putString(tail, v.getClass().getName());
        Protos.retain(retain, which, v);
        return 1;
    }
}
