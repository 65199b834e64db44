package jforge.worker;

import java.lang.reflect.InvocationTargetException;

import static jforge.worker.Proto.C_COMPARETO_ANTISYMMETRIC;
import static jforge.worker.Proto.C_COMPARETO_REFLEXIVE;
import static jforge.worker.Proto.C_EQUALS_HASHCODE;
import static jforge.worker.Proto.C_EQUALS_NULL;
import static jforge.worker.Proto.C_EQUALS_REFLEXIVE;
import static jforge.worker.Proto.C_EQUALS_SYMMETRIC;
import static jforge.worker.Proto.C_HASHCODE_THROWS;
import static jforge.worker.Proto.C_TOSTRING_THROWS;
import static jforge.worker.Proto.OP_METHOD;

/**
 * Contracts and observers, run after the last statement of a sequence that ended normally.
 * Contracts (Proto.C_*): the Object and Comparable contracts on the values jforge names, alone
 * (equals reflexive and false for null, hashCode and toString do not throw, compareTo
 * reflexive) and in pairs with the other values of the sequence (equals symmetric and
 * consistent with hashCode, compareTo antisymmetric); a violation is an error test. Observers:
 * no-argument methods called on a statement's value, whose results become the assertions of
 * regression tests. Why here and not in Rust: they call the code under test; each call runs
 * under the watchdog like a statement and is blamed on the value's statement.
 */
final class Contracts {
    /** At most this many pairs per sequence for the binary contracts. */
    static final int MAX_PAIRS = 64;

    private final Progress progress;
    private final Outcomes outcomes;
    private final Registry registry;

    Contracts(Progress progress, Outcomes outcomes, Registry registry) {
        this.progress = progress;
        this.outcomes = outcomes;
        this.registry = registry;
    }

    /** Who broke a violation (set by the Executor that owns both). */
    Blame blame;
    /** The sequence being checked: its values and number of statements. */
    private Object[] current;
    private int nstmts;

    /** Receives the violations of {@link #single}: contract code, detail, what was thrown. */
    interface Violations {
        void add(int contract, String detail, Throwable thrown);
    }

    /**
     * Checks the contracts on the values of statements cv[0..ncv) of a sequence of n
     * statements, writing violations to the tail of the RESULT frame; returns how many.
     */
    int check(Object[] vals, boolean[] isRef, int n, int[] cv, int ncv) {
        int nviol = 0;
        int pairs = 0;
        nstmts = n;
        current = vals;
        for (int q = 0; q < ncv; q++) {
            int a = cv[q];
            if (a < 0 || a >= n || vals[a] == null || !isRef[a]) {
                continue;
            }
            Object o = vals[a];
            progress.beginCall(a);
            final int at = a;
            nviol += single(o, (c, d, t) -> violation(c, at, -1, d, t));
            progress.end();
            for (int b = 0; b < n && pairs < MAX_PAIRS; b++) {
                Object p = vals[b];
                if (b == a || p == null || !isRef[b]) {
                    continue;
                }
                pairs++;
                progress.beginCall(a);
                nviol += pair(a, o, b, p);
                progress.end();
            }
        }
        return nviol;
    }

    /** A violation in the tail: contract, statements, detail, then its blame (see Blame). */
    private void violation(int contract, int a, int b, String detail, Throwable thrown) {
        Buf tail = outcomes.tail;
        tail.u8(contract);
        tail.i32(a);
        tail.i32(b);
        tail.str(Outcomes.truncate(detail));
        if (thrown != null) {
            blame.thrown(tail, thrown, nstmts, a, b, false);
        } else {
            blame.returned(tail, nstmts, a, b, contract, method(contract, current[a]));
        }
    }

    /**
     * The method whose result broke a contract (for equals-hashcode: hashCode, unless only
     * equals is overridden).
     */
    private static String method(int contract, Object x) {
        switch (contract) {
            case C_COMPARETO_REFLEXIVE:
            case C_COMPARETO_ANTISYMMETRIC:
                return "compareTo";
            case C_EQUALS_HASHCODE:
                try {
                    return x.getClass().getMethod("hashCode").getDeclaringClass() == Object.class
                            ? "equals" : "hashCode";
                } catch (NoSuchMethodException e) {
                    return "hashCode";
                }
            default:
                return "equals";
        }
    }

    /**
     * The contracts on one object: equals reflexive and false for null, hashCode and toString
     * do not throw, compareTo reflexive. Returns the number of violations.
     */
    int single(Object o, Violations out) {
        int nviol = 0;
        try {
            if (!o.equals(o)) {
                out.add(C_EQUALS_REFLEXIVE, "x.equals(x) is false", null);
                nviol++;
            }
        } catch (Throwable t) {
            Fatal.check(t);
        }
        try {
            if (o.equals(null)) {
                out.add(C_EQUALS_NULL, "x.equals(null) is true", null);
                nviol++;
            }
        } catch (Throwable t) {
            Fatal.check(t);
        }
        try {
            o.hashCode();
        } catch (Throwable t) {
            Fatal.check(t);
            out.add(C_HASHCODE_THROWS, t.getClass().getName(), t);
            nviol++;
        }
        try {
            o.toString();
        } catch (Throwable t) {
            Fatal.check(t);
            out.add(C_TOSTRING_THROWS, t.getClass().getName(), t);
            nviol++;
        }
        if (o instanceof Comparable<?>) {
            try {
                @SuppressWarnings({"unchecked", "rawtypes"})
                int r = ((Comparable) o).compareTo(o);
                if (r != 0) {
                    out.add(C_COMPARETO_REFLEXIVE, "x.compareTo(x) is " + r, null);
                    nviol++;
                }
            } catch (Throwable t) {
                Fatal.check(t);
            }
        }
        return nviol;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private int pair(int a, Object x, int b, Object y) {
        int nviol = 0;
        boolean xy, yx;
        try {
            xy = x.equals(y);
            yx = y.equals(x);
            if (xy != yx) {
                violation(C_EQUALS_SYMMETRIC, a, b, "x.equals(y) is " + xy + " but y.equals(x) is " + yx, null);
                nviol++;
            }
            if (xy) {
                int hx = x.hashCode();
                int hy = y.hashCode();
                if (hx != hy) {
                    violation(C_EQUALS_HASHCODE, a, b, "x.equals(y) but hashCodes " + hx + " != " + hy, null);
                    nviol++;
                }
            }
        } catch (Throwable t) {
            Fatal.check(t);
        }
        if (x.getClass() == y.getClass() && x instanceof Comparable) {
            try {
                int r1 = Integer.signum(((Comparable) x).compareTo(y));
                int r2 = Integer.signum(((Comparable) y).compareTo(x));
                if (r1 != -r2) {
                    violation(C_COMPARETO_ANTISYMMETRIC, a, b,
                            "sgn(x.compareTo(y)) = " + r1 + ", sgn(y.compareTo(x)) = " + r2, null);
                    nviol++;
                }
            } catch (Throwable t) {
                Fatal.check(t);
            }
        }
        return nviol;
    }

    /**
     * Observer opId on the value of statement st (of n), written to the tail of the RESULT
     * frame: statement, op, then 1 and the value, or 0 and the class of what it threw (or
     * jforge.MalformedSequence / jforge.NotAValue). A stoppable observer that runs past its
     * limit (Progress.beginObserver) is stopped like a statement's call; its entry is then
     * jforge.ObserverStopped, not asserted, and false is returned: the caller skips the
     * sequence's later observers (notObserved), the statements' outcomes stand. Why: the
     * suite stage's observers (a getter of a view over an endless stream) halted the worker,
     * a JVM start each; then one observer that loops (CursorableLinkedList's
     * Cursor.previousIndex() on a cursor whose node left the list) cost its whole test. Not
     * exhaustive's (MODE_CANON), whose callers do not expect a ThreadDeath.
     */
    boolean observe(Object[] vals, int st, int opId, int n, boolean stoppable) {
        Buf tail = outcomes.tail;
        tail.i32(st);
        tail.i32(opId);
        Registry.Op op = registry.op(opId);
        if (st < 0 || st >= n || op == null || op.kind != OP_METHOD || op.nparams != 0) {
            tail.u8(0);
            tail.str(Outcomes.MALFORMED);
            return true;
        }
        Object self = vals[st];
        if (self == null) {
            tail.u8(0);
            tail.str("java.lang.NullPointerException");
            return true;
        }
        if (stoppable) {
            progress.beginObserver(st);
        } else {
            progress.begin(st);
        }
        Object r;
        try {
            r = op.method.invoke(self);
        } catch (ThreadDeath d) {
            return stopped(d, stoppable);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            if (c instanceof ThreadDeath d) {
                return stopped(d, stoppable);
            }
            Fatal.check(c);
            progress.end();
            tail.u8(0);
            tail.str(c.getClass().getName());
            return true;
        } catch (Throwable e) {
            Fatal.check(e);
            progress.end();
            tail.u8(0);
            tail.str(e instanceof IllegalArgumentException || e instanceof IllegalAccessException
                    ? Outcomes.MALFORMED : e.getClass().getName());
            return true;
        }
        progress.end();
        if (op.voidRet) {
            tail.u8(0);
            tail.str("jforge.NotAValue");
        } else if (r == null) {
            tail.u8(1);
            tail.u8(0);
        } else {
            int mark = tail.n;
            tail.u8(1);
            if (!Outcomes.writeValue(tail, r) && !(outcomes.arrays && Outcomes.writeArray(tail, r))) {
                tail.n = mark;
                tail.u8(0);
                tail.str("jforge.NotAValue");
            }
        }
        return true;
    }

    /**
     * The observer running was stopped (see observe): its entry is jforge.ObserverStopped;
     * false. A ThreadDeath where the call was not stoppable is not ours to take: rethrown.
     */
    private boolean stopped(ThreadDeath d, boolean stoppable) {
        if (!stoppable) {
            throw d;
        }
        progress.end();
        progress.interrupted();
        Buf tail = outcomes.tail;
        tail.u8(0);
        tail.str(Outcomes.OBSERVER_STOPPED);
        return false;
    }

    /**
     * The entry of an observer not called because an earlier one of the same sequence was
     * stopped (see observe): the stopped call may have left the values half changed.
     */
    void notObserved(int st, int opId) {
        Buf tail = outcomes.tail;
        tail.i32(st);
        tail.i32(opId);
        tail.u8(0);
        tail.str(Outcomes.OBSERVER_STOPPED);
    }
}
