package jforge.worker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;

import static jforge.worker.Proto.CAUSE_CALLBACK;
import static jforge.worker.Proto.CAUSE_COMPARATOR;
import static jforge.worker.Proto.CAUSE_NONE;
import static jforge.worker.Proto.CAUSE_NULL_INPUT;
import static jforge.worker.Proto.FRAME_JDK;
import static jforge.worker.Proto.FRAME_OWN;
import static jforge.worker.Proto.OP_FGET;
import static jforge.worker.Proto.OP_FSET;
import static jforge.worker.Proto.OP_METHOD;
import static jforge.worker.Proto.STMT_ARRAY;
import static jforge.worker.Proto.STMT_CALL;

/**
 * Who broke a contract: the code of the class under test, or an object the test passed in.
 * Why: a lazy view (Maps.asMap(set, function), Lists.transform) whose function throws for
 * the view's elements does what its documentation says; reporting that as a bug of the view
 * makes a maintainer stop reading error tests. Decided from the sequence and the stack, never
 * from class names:
 * - the argument objects of the violation are the values passed as parameters (not as
 *   receivers) to the calls that built the violating values, transitively, and to calls on
 *   them (x.add(f) puts f into x); Strings, boxed values and enum constants are values, not
 *   behaviour, and never count;
 * - CAUSE_CALLBACK: a frame between the throw site and jforge's call (of the exception or of
 *   a cause) runs code of an argument object's class (its runtime class or a supertype) that is
 *   not also the violating value's own class or a supertype of it. The worker JVM runs with
 *   -XX:+ShowHiddenFrames, so a lambda argument has a frame of its own (Outer$$Lambda.apply)
 *   even though its body (Outer.lambda$m$0) is a method of the class that wrote it: a callback
 *   made by a factory of the class under test (Maps.asConverter) is an input like any other,
 *   and a lambda the violating class uses internally is not mistaken for one;
 * - CAUSE_NULL_INPUT: hashCode or toString threw a NullPointerException on a value built with
 *   a null argument (jforge's rule for the exceptions of calls: an NPE after a null input is
 *   expected behaviour);
 * - CAUSE_COMPARATOR: an equals/hashCode/compareTo violation of values built with a Comparator
 *   argument that is not reflexive, antisymmetric, transitive or consistent with equals on the
 *   sequence's values (TreeSet documents what its equals means then).
 * The frames sent with every blame (the top and bottom MAX_FRAMES of the relevant ones, each
 * flagged own or JDK) let jforge name the class and method whose code broke the contract.
 */
final class Blame {
    /** Frames sent from each end of the relevant part of a stack. */
    static final int MAX_FRAMES = 10;
    /** Most values a comparator is tried on (pairs and triples). */
    static final int MAX_VALUES = 12;

    private final Executor ex;
    private final Registry registry;
    private final ClassLoader loader;
    private final Outcomes outcomes;
    /** Frame class name -> its class (absent when it does not load: hidden classes). */
    private final HashMap<String, Class<?>> classes = new HashMap<>();
    private static final Class<?> NONE = Void.class;
    /** Set by {@link #inputs}: some parameter it passed through was null. */
    private boolean nullInput;

    Blame(Executor ex, Registry registry, Outcomes outcomes, ClassLoader loader) {
        this.ex = ex;
        this.registry = registry;
        this.outcomes = outcomes;
        this.loader = loader;
    }

    /**
     * Writes the blame of throwable t, thrown by a contract call on the values of statements
     * a and b (b &lt; 0: one value) or, when call is true, by call statement a itself, of a
     * sequence of n statements: cause, then the frames.
     */
    void thrown(Buf out, Throwable t, int n, int a, int b, boolean call) {
        Class<?>[] own = own(a, b, call);
        ArrayList<Object> inputs = inputs(n, a, b);
        int cause = !call && t instanceof NullPointerException && nullInput ? CAUSE_NULL_INPUT : CAUSE_NONE;
        ArrayList<StackTraceElement> top = relevant(t);
        int depth = 0;
        for (Throwable c = t; c != null && cause == CAUSE_NONE && depth < 8; c = c.getCause(), depth++) {
            for (StackTraceElement f : c == t ? top : relevant(c)) {
                if (implicates(f.getClassName(), own, inputs)) {
                    cause = CAUSE_CALLBACK;
                    break;
                }
            }
        }
        out.u8(cause);
        frames(out, top, own);
    }

    /**
     * Writes the blame of a violation without an exception (equals, hashCode or compareTo
     * returned the wrong thing) on the values of statements a and b: CAUSE_COMPARATOR when
     * comparable (an equals/hashCode/compareTo contract) and a Comparator argument breaks its
     * contract on the sequence's values; one frame naming the method (declaring class).
     */
    void returned(Buf out, int n, int a, int b, boolean comparable, String method) {
        int cause = CAUSE_NONE;
        if (comparable) {
            for (Object x : inputs(n, a, b)) {
                if (x instanceof Comparator<?> c && !consistent(c, n)) {
                    cause = CAUSE_COMPARATOR;
                    break;
                }
            }
        }
        out.u8(cause);
        Object v = ex.vals[a];
        String cls = declaring(v.getClass(), method);
        out.u8(1);
        outcomes.putString(out, cls);
        outcomes.putString(out, method);
        out.i32(-1);
        out.u8(FRAME_OWN);
    }

    /** The class that declares the no-argument or one-argument method of that name for c. */
    private static String declaring(Class<?> c, String method) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (java.lang.reflect.Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(method) && m.getParameterCount() <= 1 && !m.isBridge()
                        && !m.isSynthetic()) {
                    return k.getName();
                }
            }
        }
        return c.getName();
    }

    /** The frames of t above jforge's own call (the worker's frames and reflection cut off). */
    static ArrayList<StackTraceElement> relevant(Throwable t) {
        ArrayList<StackTraceElement> r = new ArrayList<>();
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getClassName().startsWith("jforge.worker.")) {
                break;
            }
            r.add(f);
        }
        while (!r.isEmpty()) {
            String c = r.get(r.size() - 1).getClassName();
            if (c.startsWith("jdk.internal.reflect.") || c.startsWith("java.lang.reflect.")) {
                r.remove(r.size() - 1);
            } else {
                break;
            }
        }
        return r;
    }

    private void frames(Buf out, ArrayList<StackTraceElement> fs, Class<?>[] own) {
        int n = fs.size();
        boolean cut = n > 2 * MAX_FRAMES;
        out.u8(cut ? 2 * MAX_FRAMES : n);
        for (int i = 0; i < n; i++) {
            if (cut && i >= MAX_FRAMES && i < n - MAX_FRAMES) {
                continue;
            }
            StackTraceElement f = fs.get(i);
            Class<?> k = load(f.getClassName());
            int flags = 0;
            if (k != null && isOwn(k, own)) {
                flags |= FRAME_OWN;
            }
            if (k != null && (k.getClassLoader() == null
                    || k.getClassLoader() == ClassLoader.getPlatformClassLoader())) {
                flags |= FRAME_JDK;
            }
            outcomes.putString(out, f.getClassName());
            outcomes.putString(out, f.getMethodName());
            out.i32(f.getLineNumber());
            out.u8(flags);
        }
    }

    /** The classes whose code is the violator's own: the values' classes, the call's class. */
    private Class<?>[] own(int a, int b, boolean call) {
        Object va = call ? null : ex.vals[a];
        Object vb = b >= 0 ? ex.vals[b] : null;
        Class<?> declared = null;
        Object recv = null;
        if (call) {
            Executor.Stmt s = ex.stmt(a);
            Registry.Op op = s.kind == STMT_CALL ? registry.op(s.op) : null;
            if (op != null) {
                declared = op.ctor != null ? op.ctor.getDeclaringClass()
                        : op.method != null ? op.method.getDeclaringClass()
                        : op.field != null ? op.field.getDeclaringClass() : null;
                if (hasReceiver(op) && s.nargs > 0 && s.args[0] >= 0 && s.args[0] < a) {
                    recv = ex.vals[s.args[0]];
                }
            }
        }
        return new Class<?>[] {
            va == null ? null : va.getClass(),
            vb == null ? null : vb.getClass(),
            declared,
            recv == null ? null : recv.getClass(),
        };
    }

    private static boolean isOwn(Class<?> k, Class<?>[] own) {
        for (Class<?> o : own) {
            if (o != null && k.isAssignableFrom(o)) {
                return true;
            }
        }
        return false;
    }

    /** Does a frame of class name cls run code of one of the inputs, and not the violator's? */
    private boolean implicates(String cls, Class<?>[] own, ArrayList<Object> inputs) {
        Class<?> k = load(cls);
        if (k != null && isOwn(k, own)) {
            return false;
        }
        for (Object x : inputs) {
            Class<?> xc = x.getClass();
            if (xc.getName().equals(cls) || (k != null && k.isAssignableFrom(xc))) {
                return true;
            }
        }
        return false;
    }

    private Class<?> load(String name) {
        Class<?> k = classes.get(name);
        if (k == null) {
            try {
                k = Class.forName(name, false, loader);
            } catch (Throwable t) {
                Fatal.check(t);
                k = NONE;
            }
            classes.put(name, k);
        }
        return k == NONE ? null : k;
    }

    private static boolean hasReceiver(Registry.Op op) {
        return op.kind == OP_METHOD || op.kind == OP_FGET || op.kind == OP_FSET;
    }

    /**
     * The argument objects of the values of statements a and b: values passed as parameters
     * to the calls (and arrays) that built them, transitively, and to calls on them.
     */
    ArrayList<Object> inputs(int n, int a, int b) {
        boolean[] in = new boolean[n];
        boolean[] param = new boolean[n];
        if (a >= 0 && a < n) {
            in[a] = true;
        }
        if (b >= 0 && b < n) {
            in[b] = true;
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < n; i++) {
                Executor.Stmt s = ex.stmt(i);
                if (s.kind != STMT_CALL && s.kind != STMT_ARRAY) {
                    continue;
                }
                Registry.Op op = s.kind == STMT_CALL ? registry.op(s.op) : null;
                int from = op != null && hasReceiver(op) ? 1 : 0;
                boolean onIt = from == 1 && s.nargs > 0 && s.args[0] >= 0 && s.args[0] < i && in[s.args[0]];
                if (!in[i] && !onIt) {
                    continue;
                }
                for (int k = 0; k < s.nargs; k++) {
                    int j = s.args[k];
                    if (j < 0 || j >= i) {
                        continue;
                    }
                    if (k >= from) {
                        param[j] = true;
                    }
                    if (!in[j] && (in[i] || k >= from)) {
                        in[j] = true;
                        changed = true;
                    }
                }
            }
        }
        ArrayList<Object> r = new ArrayList<>();
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        Object va = a >= 0 && a < n ? ex.vals[a] : null;
        Object vb = b >= 0 && b < n ? ex.vals[b] : null;
        nullInput = false;
        for (int j = 0; j < n; j++) {
            Object x = ex.vals[j];
            nullInput |= param[j] && x == null && ex.isRef[j];
            if (param[j] && x != null && x != va && x != vb && !isValue(x) && seen.put(x, true) == null) {
                r.add(x);
            }
        }
        return r;
    }

    /** Values carry no behaviour of the test's choosing: Strings, boxed values, enums, arrays. */
    private static boolean isValue(Object x) {
        return x instanceof String || x instanceof Integer || x instanceof Long || x instanceof Short
                || x instanceof Byte || x instanceof Double || x instanceof Float || x instanceof Boolean
                || x instanceof Character || x instanceof Enum<?> || x.getClass().isArray();
    }

    /**
     * Is c reflexive, antisymmetric, transitive and consistent with equals on the sequence's
     * values (pairs it cannot compare, ClassCastException and the like, are left out)?
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private boolean consistent(Comparator c, int n) {
        ArrayList<Object> vs = new ArrayList<>();
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        boolean hasNull = false;
        for (int i = 0; i < n && vs.size() < MAX_VALUES; i++) {
            Object v = ex.vals[i];
            if (v == null) {
                // a null the sequence passed is one of its values (TreeSet takes it when the
                // comparator does)
                if (!hasNull && ex.isRef[i] && ex.stmt(i).kind != STMT_CALL) {
                    hasNull = true;
                    vs.add(null);
                }
            } else if (!(v instanceof Comparator) && seen.put(v, true) == null) {
                vs.add(v);
            }
        }
        int m = vs.size();
        int[][] s = new int[m][m];
        final int na = Integer.MIN_VALUE;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                try {
                    s[i][j] = Integer.signum(c.compare(vs.get(i), vs.get(j)));
                } catch (Throwable t) {
                    Fatal.check(t);
                    s[i][j] = na;
                }
            }
        }
        for (int i = 0; i < m; i++) {
            if (s[i][i] != na && s[i][i] != 0) {
                return false;
            }
            for (int j = 0; j < m; j++) {
                if (s[i][j] == na || s[j][i] == na || i == j) {
                    continue;
                }
                if (s[i][j] != -s[j][i] || (s[i][j] == 0) != equal(vs.get(i), vs.get(j))) {
                    return false;
                }
                for (int k = 0; k < m; k++) {
                    if (s[j][k] == na || s[i][k] == na || s[i][j] != s[j][k] || s[i][j] < 0) {
                        continue;
                    }
                    if (s[i][k] != s[i][j]) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean equal(Object x, Object y) {
        if (x == null || y == null) {
            return x == y;
        }
        try {
            return x.equals(y);
        } catch (Throwable t) {
            Fatal.check(t);
            return false;
        }
    }
}
