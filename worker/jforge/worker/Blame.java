package jforge.worker;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static jforge.worker.Proto.CAUSE_ARGUMENT_CONTRACT;
import static jforge.worker.Proto.CAUSE_CALLBACK;
import static jforge.worker.Proto.CAUSE_COMPARATOR;
import static jforge.worker.Proto.CAUSE_HELD_CONTRACT;
import static jforge.worker.Proto.CAUSE_NONE;
import static jforge.worker.Proto.CAUSE_NULL_INPUT;
import static jforge.worker.Proto.CAUSE_STATE;
import static jforge.worker.Proto.C_EQUALS_HASHCODE;
import static jforge.worker.Proto.C_EQUALS_NULL;
import static jforge.worker.Proto.C_EQUALS_SYMMETRIC;
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
 *   expected behaviour), or any NullPointerException (of a call too) when an argument object
 *   is a Collection or Map holding a null (new DualTreeBidiMap(new SingletonMap()): the
 *   APIs document the NPE where nulls are not permitted) or a parameter is an array holding
 *   one (what toArray(T[]) of a shorter collection returns), or a callback argument (one
 *   abstract method) returns null for the values the throwing call was given (its null
 *   reaches the class's code after it returned: no frame of it on the stack), or a lambda
 *   jforge made that returns null is the receiver or an argument object; and any exception
 *   (not only a NullPointerException) when a stub jforge made (an anonymous subclass,
 *   {@link Stubs}) is the receiver or an argument object and one of its methods returns
 *   null or a default (0, false, ""): its answers are no behaviour of the code under test
 *   (an ImmutableBiMap subclass whose entrySet() is null breaks toString);
 * - CAUSE_CALLBACK too: an exception (not a NullPointerException) of a class that an
 *   Iterable argument object throws when iterated alone ({@link #failsAlone}: a view over a
 *   consuming iterable of a read-only collection);
 * - CAUSE_COMPARATOR: an equals/hashCode/compareTo violation of values built with a Comparator
 *   argument that is not reflexive, antisymmetric, transitive or consistent with equals on the
 *   sequence's values (TreeSet documents what its equals means then);
 * - CAUSE_STATE: a NullPointerException thrown by the receiver's own code on a field of its
 *   own (the JVM's message names "this.field") that is null, that a public constructor of
 *   the receiver's class writes and a public method writes later (FieldWriters: PUTFIELD in
 *   its bytecode, or a public field), and that no call of the sequence on the receiver took:
 *   an object built with the late-set-up constructor and used before the setter its class
 *   documents (TransformIterator() before setIterator), like an IllegalStateException; a
 *   field no public method sets, or that no constructor sets, stays the class's defect;
 * - CAUSE_ARGUMENT_CONTRACT: an equals-symmetric or equals-hashcode violation between x and
 *   y, where an argument object x was built from breaks its interface's contract alone, or
 *   y does and x does not, or y answers equals otherwise than the JDK copies of both and x
 *   as they do (checked against a JDK copy: HashSet, ArrayList, HashMap; equal one way
 *   only, equal with another hashCode, equal elements or keys in a Set or Map, an iterator
 *   that does not give size() elements, not containing all its own elements), e.g. a set of
 *   identity-hashed elements given to SetUtils.union: the other collection's defect, not
 *   x's; when y is a class under test, the reverse pair reports y's own defect;
 * - CAUSE_HELD_CONTRACT: an equals-symmetric or equals-hashcode violation between x and y,
 *   where x holds in its fields (up to HELD_DEPTH levels, through any objects) a Set, List
 *   or Map h of another class that breaks the same contract with y alone, and x answers
 *   exactly as h does (x.equals(y), y.equals(x), and for equals-hashcode x.hashCode()): x is
 *   a decorator or view that passes h's defect on (UnmodifiableSet around DualTreeBidiMap's
 *   values view, built inside UnmodifiableSortedBidiMap.values(), so no argument of the
 *   sequence); or x holds y itself and answers as the JDK copies of both do while y does
 *   not (the view denies being equal to its own read-only decorator). h's (y's) class owns
 *   the defect, and its own error test is written when the sequence reaches it as a value.
 *   A decorator whose answer differs from what it holds, or that has no JDK copy
 *   (SynchronizedCollection around a list, not itself a List), stays reported.
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
    /**
     * Set by {@link #inputs}: some parameter it passed through was an array holding null (as
     * the longer array {@code toArray(T[])} of a shorter collection comes back): a null
     * input like a collection holding null ({@link #holdsNull}).
     */
    private boolean nullElement;
    /** Which public methods write a field (for CAUSE_STATE). */
    private final FieldWriters writers = new FieldWriters();
    /** Most elements of a collection copied to check it against its JDK copy. */
    static final int MAX_COPY = 1000;

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
        boolean npe = t instanceof NullPointerException;
        int cause = npe && ((!call && nullInput) || nullElement || holdsNull(inputs)) ? CAUSE_NULL_INPUT : CAUSE_NONE;
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
        if (cause == CAUSE_NONE && !npe && failsAlone(t, own, inputs)) {
            cause = CAUSE_CALLBACK;
        }
        if (cause == CAUSE_NONE && npe && notInitialized(t, top, receiver(a, call), inputs, call ? a : n)) {
            cause = CAUSE_STATE;
        }
        Object recv = receiver(a, call);
        if (cause == CAUSE_NONE && npe && (call && returnsNull(inputs, a) || Lambdas.returnsNull(recv)
                || inputs.stream().anyMatch(Lambdas::returnsNull))) {
            cause = CAUSE_NULL_INPUT;
        }
        if (cause == CAUSE_NONE && (Stubs.returnsDefault(recv) || inputs.stream().anyMatch(Stubs::returnsDefault)
                || !call && b >= 0 && Stubs.returnsDefault(ex.vals[b]))) {
            cause = CAUSE_NULL_INPUT;
        }
        out.u8(cause);
        frames(out, top, own);
    }

    /**
     * Does an Iterable argument object (not of the violating value's own classes) throw an
     * exception of t's class when iterated alone (at most MAX_COPY elements)? Then the
     * argument is what fails, the code that iterated it only passes that on: a view's
     * toString over Iterables.consumingIterable(immutableSet), whose iterator removes each
     * element and so throws UnsupportedOperationException, as its documentation says. Why by
     * iterating and not by the stack: the throwing iterator is made by the argument but may be
     * of a class of its own (Iterators$5), so no frame of the argument's class is on the
     * stack. NullPointerExceptions are left to the null-input rules.
     */
    private static boolean failsAlone(Throwable t, Class<?>[] own, ArrayList<Object> inputs) {
        for (Object x : inputs) {
            if (!(x instanceof Iterable<?> it) || isOwn(x.getClass(), own)) {
                continue;
            }
            try {
                int k = 0;
                for (java.util.Iterator<?> i = it.iterator(); i.hasNext() && k++ < MAX_COPY;) {
                    i.next();
                }
            } catch (Throwable e) {
                Fatal.check(e);
                if (e.getClass() == t.getClass()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Most calls of an argument's callback method made by {@link #returnsNull}. */
    static final int MAX_PROBES = 8;

    /**
     * Does a callback argument return null for the values call statement a was given? A
     * callback: an argument object whose class implements an interface with one abstract
     * method of one or two parameters (a Transformer, Function, BiFunction). Its null flows
     * into the class's code, which throws the NullPointerException after the callback
     * returned (no frame of it on the stack): TransformingComparator(nullTransformer())
     * .compare(a, b) throws in ComparableComparator, which documents the NPE for null.
     */
    private boolean returnsNull(ArrayList<Object> inputs, int a) {
        Executor.Stmt s = ex.stmt(a);
        Registry.Op op = s.kind == STMT_CALL ? registry.op(s.op) : null;
        if (op == null) {
            return false;
        }
        ArrayList<Object> given = new ArrayList<>();
        for (int k = hasReceiver(op) ? 1 : 0; k < s.nargs; k++) {
            int j = s.args[k];
            if (j >= 0 && j < a && ex.vals[j] != null) {
                given.add(ex.vals[j]);
            }
        }
        int probes = 0;
        for (Object x : inputs) {
            java.lang.reflect.Method m = callbackMethod(x.getClass());
            if (m == null) {
                continue;
            }
            Class<?>[] ps = m.getParameterTypes();
            for (Object p : given) {
                for (Object q : ps.length == 2 ? given : java.util.List.of(p)) {
                    if (probes++ >= MAX_PROBES) {
                        return false;
                    }
                    Object[] args = ps.length == 2 ? new Object[] {p, q} : new Object[] {p};
                    if (fits(ps, args) && probe(m, x, args)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean fits(Class<?>[] ps, Object[] args) {
        for (int i = 0; i < ps.length; i++) {
            if (ps[i].isPrimitive() || !ps[i].isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    /** m on x with args returned null (what it threw does not count). */
    private static boolean probe(java.lang.reflect.Method m, Object x, Object[] args) {
        try {
            return m.invoke(x, args) == null && m.getReturnType() != void.class;
        } catch (Throwable t) {
            Fatal.check(t);
            return false;
        }
    }

    /**
     * The single abstract method (one or two reference parameters, a result) of a public
     * interface c implements, when exactly one of its interfaces has such a shape.
     */
    private static java.lang.reflect.Method callbackMethod(Class<?> c) {
        java.lang.reflect.Method found = null;
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                java.lang.reflect.Method m = sam(i);
                if (m != null && found != null && !found.equals(m)) {
                    return null;
                }
                found = m != null ? m : found;
            }
        }
        return found;
    }

    private static java.lang.reflect.Method sam(Class<?> i) {
        if (!Modifier.isPublic(i.getModifiers())) {
            return null;
        }
        java.lang.reflect.Method one = null;
        for (java.lang.reflect.Method m : i.getMethods()) {
            if (!Modifier.isAbstract(m.getModifiers()) || isObjectMethod(m)) {
                continue;
            }
            if (one != null) {
                return null;
            }
            one = m;
        }
        int np = one == null ? 0 : one.getParameterCount();
        return np >= 1 && np <= 2 && one.getReturnType() != void.class ? one : null;
    }

    private static boolean isObjectMethod(java.lang.reflect.Method m) {
        try {
            Object.class.getMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * Does an argument object hold a null: a Collection with a null element, a Map with a
     * null key or value (the Collection and Map APIs document a NullPointerException for
     * those where nulls are not permitted, as for a null argument)?
     */
    static boolean holdsNull(ArrayList<Object> inputs) {
        for (Object x : inputs) {
            try {
                if (x instanceof Collection<?> c && c.size() <= MAX_COPY) {
                    int k = 0;
                    for (java.util.Iterator<?> it = c.iterator(); it.hasNext() && k++ <= MAX_COPY;) {
                        if (it.next() == null) {
                            return true;
                        }
                    }
                } else if (x instanceof Map<?, ?> m && m.size() <= MAX_COPY) {
                    int k = 0;
                    for (java.util.Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
                            it.hasNext() && k++ <= MAX_COPY;) {
                        Map.Entry<?, ?> e = it.next();
                        if (e.getKey() == null || e.getValue() == null) {
                            return true;
                        }
                    }
                }
            } catch (Throwable t) {
                Fatal.check(t);
            }
        }
        return false;
    }

    /** The object whose method threw: the call's receiver, or the value checked. */
    private Object receiver(int a, boolean call) {
        if (!call) {
            return ex.vals[a];
        }
        Executor.Stmt s = ex.stmt(a);
        Registry.Op op = s.kind == STMT_CALL ? registry.op(s.op) : null;
        if (op != null && hasReceiver(op) && s.nargs > 0 && s.args[0] >= 0 && s.args[0] < a) {
            return ex.vals[s.args[0]];
        }
        return null;
    }

    /**
     * CAUSE_STATE: did t dereference a field of recv, or of an argument object (named by
     * the JVM's message as "this.f", in the top frame, a method of the object's class: a
     * FilterIterator() given to a UniqueFilterIterator) that is null, that a public
     * constructor of recv's class writes (the class can be built initialized: the constructor
     * that leaves it null is there for late set-up) and a public method writes later, and
     * that none of the first m statements called on that object? A class whose constructors all
     * leave the field null (quirks.Npe: Npe() then nameLength()) crashes in the state it is
     * built in: that stays its defect.
     */
    private boolean notInitialized(Throwable t, ArrayList<StackTraceElement> top, Object recv,
            ArrayList<Object> inputs, int m) {
        String name = top.isEmpty() ? null : nullField(t.getMessage());
        Class<?> k = name == null ? null : load(top.get(0).getClassName());
        Field f = k == null ? null : field(k, name);
        if (f == null || Modifier.isStatic(f.getModifiers())) {
            return false;
        }
        if (recv != null && unset(recv, k, f, m)) {
            return true;
        }
        for (Object x : inputs) {
            if (unset(x, k, f, m)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Is o (an instance of k) left with field f null by a constructor of a class that has a
     * constructor and a public method that set it, with none of the first m statements
     * calling such a method on o?
     */
    private boolean unset(Object o, Class<?> k, Field f, int m) {
        if (!k.isInstance(o)) {
            return false;
        }
        try {
            f.setAccessible(true);
            if (f.get(o) != null) {
                return false;
            }
        } catch (Throwable e) {
            Fatal.check(e);
            return false;
        }
        HashSet<String> ws = writers.writers(o.getClass(), f);
        if (ws.isEmpty() || !writers.constructorWrites(o.getClass(), f)) {
            return false;
        }
        for (int i = 0; i < m; i++) {
            Executor.Stmt s = ex.stmt(i);
            Registry.Op op = s.kind == STMT_CALL ? registry.op(s.op) : null;
            if (op == null || !hasReceiver(op) || s.nargs == 0 || s.args[0] < 0 || s.args[0] >= i
                    || ex.vals[s.args[0]] != o) {
                continue;
            }
            if ((op.method != null && ws.contains(FieldWriters.key(op.method)))
                    || (op.kind == OP_FSET && op.field != null && op.field.equals(f))) {
                return false;
            }
        }
        return true;
    }

    /** The field f of a helpful NullPointerException message "... because "this.f" is null". */
    static String nullField(String msg) {
        String mark = "because \"this.";
        int i = msg == null ? -1 : msg.indexOf(mark);
        if (i < 0) {
            return null;
        }
        int from = i + mark.length();
        int to = msg.indexOf('"', from);
        String name = to < 0 ? "" : msg.substring(from, to);
        return name.isEmpty() || name.indexOf('.') >= 0 || !msg.startsWith(" is null", to + 1) ? null : name;
    }

    /** The field of that name declared in k or a superclass. */
    private static Field field(Class<?> k, String name) {
        for (Class<?> c = k; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    return f;
                }
            }
        }
        return null;
    }

    /**
     * Writes the blame of a violation without an exception (equals, hashCode or compareTo
     * returned the wrong thing) of contract (Proto.C_*) on the values of statements a and b:
     * for an equals/hashCode/compareTo contract, CAUSE_COMPARATOR when a Comparator argument
     * breaks its contract on the sequence's values; for equals-symmetric and equals-hashcode,
     * CAUSE_ARGUMENT_CONTRACT when another collection breaks its own interface's contract
     * (see {@link #argumentBreaks}); one frame naming the method (declaring class).
     */
    void returned(Buf out, int n, int a, int b, int contract, String method) {
        int cause = CAUSE_NONE;
        if (contract != C_EQUALS_NULL) {
            ArrayList<Object> inputs = inputs(n, a, b);
            for (Object x : inputs) {
                if (x instanceof Comparator<?> c && !consistent(c, n)) {
                    cause = CAUSE_COMPARATOR;
                    break;
                }
            }
            if (cause == CAUSE_NONE && (contract == C_EQUALS_SYMMETRIC || contract == C_EQUALS_HASHCODE)
                    && argumentBreaks(ex.vals[a], b >= 0 ? ex.vals[b] : null, inputs(n, a, -1))) {
                cause = CAUSE_ARGUMENT_CONTRACT;
            }
            if (cause == CAUSE_NONE && b >= 0 && heldBreaks(ex.vals[a], ex.vals[b], contract)) {
                cause = CAUSE_HELD_CONTRACT;
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

    /**
     * CAUSE_ARGUMENT_CONTRACT, for an equals-symmetric or equals-hashcode violation between x
     * and y: an argument object x was built from (xInputs) breaks its interface's contract
     * alone (a union over an identity set holding two equal strings is as broken as the set
     * it was given), or x does not and y does, or x answers equals as the JDK copies of both
     * do and y does not (the violation is y's: when y is a class under test, the reverse pair
     * reports it as y's own).
     */
    static boolean argumentBreaks(Object x, Object y, ArrayList<Object> xInputs) {
        for (Object z : xInputs) {
            if (breaksContract(z)) {
                return true;
            }
        }
        if (y == null || breaksContract(x)) {
            return false;
        }
        return breaksContract(y) || wrongAnswer(x, y);
    }

    /** Levels of fields searched for a collection a value holds (x.f, x.f.g, x.f.g.h). */
    static final int HELD_DEPTH = 3;
    /** Most objects reached through fields per search. */
    static final int HELD_OBJECTS = 64;

    /**
     * CAUSE_HELD_CONTRACT, for an equals-symmetric or equals-hashcode violation (contract)
     * between x and y, where x holds (within HELD_DEPTH levels of fields) what it answers for:
     * - x holds y itself (UnmodifiableSet around the very values view it is compared with):
     *   the one of the pair that answers otherwise than the JDK copies of both is at fault;
     *   when that is y, the pair checked the other way round reports y's defect on y's class
     *   ({@link #wrongAnswer}); a decorator that is no Set, List or Map itself
     *   (SynchronizedCollection around a list) has no copy and stays reported;
     * - y holds x: x is the decorated one, its answers are its own (not set aside here);
     * - else x holds a Set, List or Map h of another class than x's that breaks the same
     *   contract with y alone while x answers exactly as h does ({@link #passesOn}): x passes
     *   on h's defect (see the class doc).
     * Fields are read as the copier reads them (FieldAccess), JDK classes' too; arrays are
     * not entered (a composite's members are its own business, not a decorator's).
     */
    static boolean heldBreaks(Object x, Object y, int contract) {
        if (x == null || y == null) {
            return false;
        }
        Set<Object> held = held(x);
        if (held.contains(y)) {
            return wrongAnswer(x, y);
        }
        if (held(y).contains(x)) {
            return false;
        }
        for (Object h : held) {
            if ((h instanceof Collection<?> || h instanceof Map<?, ?>) && h.getClass() != x.getClass()
                    && passesOn(x, h, y, contract)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The objects root's fields hold, transitively up to HELD_DEPTH levels and HELD_OBJECTS
     * objects (root excluded), by identity.
     */
    private static Set<Object> held(Object root) {
        Set<Object> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayList<Object> level = new ArrayList<>(List.of(root));
        for (int d = 0; d < HELD_DEPTH && !level.isEmpty(); d++) {
            ArrayList<Object> next = new ArrayList<>();
            for (Object o : level) {
                for (Object h : referenced(o)) {
                    if (h != root && seen.size() < HELD_OBJECTS && seen.add(h)) {
                        next.add(h);
                    }
                }
            }
            level = next;
        }
        return seen;
    }

    /** FieldAccess keys of the fields {@link #referenced} read (a method-handle key is made once). */
    private static final HashMap<Field, Long> KEYS = new HashMap<>();

    /** The non-null objects o's instance reference fields hold (none for arrays). */
    private static ArrayList<Object> referenced(Object o) {
        ArrayList<Object> r = new ArrayList<>();
        Class<?> c0 = o.getClass();
        if (c0.isArray() || !FieldAccess.INSTANCE.laysOut(c0)) {
            return r;
        }
        for (Class<?> c = c0; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                try {
                    Long key = KEYS.computeIfAbsent(f, FieldAccess.INSTANCE::key);
                    Object v = FieldAccess.INSTANCE.getObject(o, key);
                    if (v != null && !isValue(v)) {
                        r.add(v);
                    }
                } catch (Throwable t) {
                    Fatal.check(t);
                }
            }
        }
        return r;
    }

    /**
     * Does h break the contract with y alone, x answering as h does: for equals-symmetric,
     * h.equals(y) != y.equals(h), x.equals(y) == h.equals(y) and y.equals(x) == y.equals(h);
     * for equals-hashcode, h.equals(y) with another hashCode than y's, x.hashCode() ==
     * h.hashCode() and x.equals(y) == h.equals(y).
     */
    private static boolean passesOn(Object x, Object h, Object y, int contract) {
        try {
            boolean hy = h.equals(y);
            if (x.equals(y) != hy) {
                return false;
            }
            if (contract == C_EQUALS_SYMMETRIC) {
                boolean yh = y.equals(h);
                return hy != yh && y.equals(x) == yh;
            }
            return hy && h.hashCode() != y.hashCode() && x.hashCode() == h.hashCode();
        } catch (Throwable t) {
            Fatal.check(t);
            return false;
        }
    }

    /**
     * Does y answer y.equals(x) otherwise than the JDK copies of both (the interfaces'
     * reference answer), while x answers x.equals(y) as they do? Then an asymmetry between
     * them is y's (TreeBidiMap's inverse view equal to a map it differs from), reported on
     * y's class by the pair checked the other way round.
     */
    private static boolean wrongAnswer(Object x, Object y) {
        Object cx = copy(x);
        Object cy = copy(y);
        if (cx == null || cy == null) {
            return false;
        }
        try {
            boolean ref = cx.equals(cy);
            return x.equals(y) == ref && y.equals(x) != ref;
        } catch (Throwable t) {
            Fatal.check(t);
            return false;
        }
    }

    /** A JDK copy of a Set, List or Map of at most MAX_COPY elements (else null). */
    private static Object copy(Object z) {
        try {
            if (z instanceof Set<?> s && s.size() <= MAX_COPY) {
                return new HashSet<Object>(s);
            }
            if (z instanceof List<?> l && l.size() <= MAX_COPY) {
                return new ArrayList<Object>(l);
            }
            if (z instanceof Map<?, ?> m && m.size() <= MAX_COPY) {
                return new HashMap<Object, Object>(m);
            }
        } catch (Throwable t) {
            Fatal.check(t);
        }
        return null;
    }

    /**
     * z is a Set, List or Map that breaks its interface's contract against its JDK copy:
     * equal one way only, or equal with another hashCode (the copy's is the contract's), or
     * a Set or Map holding equal elements or keys (its HashSet or HashMap copy is smaller);
     * or a collection whose iterator does not give size() elements, or that does not contain
     * all of its own elements (an empty multimap value whose containsAll(empty) is false).
     */
    private static boolean breaksContract(Object z) {
        if (!(z instanceof Collection<?>) && !(z instanceof Map<?, ?>)) {
            return false;
        }
        Object c = copy(z);
        try {
            if (z instanceof Collection<?> zc && zc.size() <= MAX_COPY) {
                int k = 0;
                for (java.util.Iterator<?> it = zc.iterator(); it.hasNext() && k <= MAX_COPY; k++) {
                    it.next();
                }
                if (k != zc.size() || !zc.containsAll(new ArrayList<Object>(zc))) {
                    return true;
                }
            }
            if (c == null) {
                return false;
            }
            if ((c instanceof Set<?> cs && cs.size() != ((Set<?>) z).size())
                    || (c instanceof Map<?, ?> cm && cm.size() != ((Map<?, ?>) z).size())) {
                return true;
            }
            boolean zc = z.equals(c);
            boolean cz = c.equals(z);
            return zc != cz || (zc && z.hashCode() != c.hashCode());
        } catch (Throwable t) {
            Fatal.check(t);
            return false;
        }
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
        nullElement = false;
        for (int j = 0; j < n; j++) {
            Object x = ex.vals[j];
            nullInput |= param[j] && x == null && ex.isRef[j];
            nullElement |= param[j] && x instanceof Object[] arr && arr.length <= MAX_COPY && hasNull(arr);
            if (param[j] && x != null && x != va && x != vb && !isValue(x) && seen.put(x, true) == null) {
                r.add(x);
            }
        }
        return r;
    }

    private static boolean hasNull(Object[] arr) {
        for (Object e : arr) {
            if (e == null) {
                return true;
            }
        }
        return false;
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
