package jforge.worker;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;

/**
 * Static fields of the code under test that a sequence leaves changed. Why: a written test
 * that ends with a builder's static settings made and not consumed (commons-cli's
 * OptionBuilder.withValueSeparator() without create()) changes every test its build runs
 * after it in the same JVM: on commons-cli a written test failed under Surefire that passed
 * in jforge's own runs. gen's workers (-Djforge.console=quiet) report such a sequence as
 * jforge.ChangesGlobalState at its last statement, never a test, and put the fields back,
 * as GlobalState does for the system properties.
 *
 * <p>Watched: the static, non-final, non-synthetic fields of a class (outside the JDK) whose
 * members the sequence calls, that a method other than the static initializer sets without
 * reading (FieldWriters.settableStatics: a setting left for later calls, not a cache filled
 * when found empty nor a counter); such a class is initialized before the sequence, so that
 * the first sequence is watched too. Compared: primitives by value, references by identity.
 *
 * <p>Cost per sequence: a lookup per call statement, a reflective read per watched field
 * before and after (none for most classes, which have no such field).
 */
final class StaticState {
    private static final Field[] NONE = new Field[0];

    private final FieldWriters writers = new FieldWriters();
    private final HashMap<Class<?>, Field[]> watched = new HashMap<>();
    /** Classes with watched fields whose static initializer ran. */
    private final HashSet<Class<?>> ready = new HashSet<>();
    private final ArrayList<Class<?>> called = new ArrayList<>();
    private final ArrayList<Field> fields = new ArrayList<>();
    private final ArrayList<Object> values = new ArrayList<>();

    /** Before a sequence: the watched fields of the classes its calls belong to, read. */
    void before(Registry registry, Executor.Stmt[] stmts, int n) {
        called.clear();
        fields.clear();
        values.clear();
        for (int i = 0; i < n; i++) {
            if (stmts[i].kind != Proto.STMT_CALL) {
                continue;
            }
            Registry.Op op = registry.op(stmts[i].op);
            if (op == null) {
                continue;
            }
            Member m = op.method != null ? op.method : op.ctor != null ? op.ctor : op.field;
            if (m == null) {
                continue;
            }
            Class<?> c = m.getDeclaringClass();
            if (called.contains(c)) {
                continue;
            }
            called.add(c);
            Field[] w = watchedOf(c);
            if (w.length == 0 || !initialized(c)) {
                continue;
            }
            for (Field f : w) {
                try {
                    fields.add(f);
                    values.add(f.get(null));
                } catch (Throwable t) {
                    Fatal.check(t);
                    fields.remove(fields.size() - 1);
                }
            }
        }
    }

    /**
     * Initializes c (its static initializer runs now, before the sequence's first statement,
     * instead of at the sequence's first use of c: a member of c is called, so it would run
     * in this sequence anyway); false when its initializer fails. Why before: the snapshot
     * must hold the state after the initializer; watching a class only from its second
     * sequence on left the first sequence's settings as the baseline (commons-cli: one
     * OptionBuilder.withDescription(..) left unwatched made every later create() look like
     * a change).
     */
    private boolean initialized(Class<?> c) {
        if (ready.contains(c)) {
            return true;
        }
        try {
            Class.forName(c.getName(), true, c.getClassLoader());
        } catch (Throwable t) {
            Fatal.check(t);
            return false;
        }
        ready.add(c);
        return true;
    }

    /**
     * After the sequence: what it left changed ("left static field C.f changed"), the fields
     * put back, or null.
     */
    String after() {
        String what = null;
        for (int k = 0; k < fields.size(); k++) {
            Field f = fields.get(k);
            Object old = values.get(k);
            try {
                Object now = f.get(null);
                boolean same = f.getType().isPrimitive() ? old.equals(now) : old == now;
                if (!same) {
                    if (what == null) {
                        what = "left static field " + f.getDeclaringClass().getName() + "." + f.getName() + " changed";
                    }
                    f.set(null, old);
                }
            } catch (Throwable t) {
                Fatal.check(t);
            }
        }
        return what;
    }

    private Field[] watchedOf(Class<?> c) {
        Field[] w = watched.get(c);
        if (w != null) {
            return w;
        }
        w = NONE;
        String name = c.getName();
        if (!(c.getClassLoader() == null || name.startsWith("java.") || name.startsWith("javax.")
                || name.startsWith("jdk.") || name.startsWith("sun.") || name.startsWith("com.sun."))) {
            try {
                HashSet<String> settable = writers.settableStatics(c);
                ArrayList<Field> out = new ArrayList<>();
                if (!settable.isEmpty()) {
                    for (Field f : c.getDeclaredFields()) {
                        int mod = f.getModifiers();
                        if (Modifier.isStatic(mod) && !Modifier.isFinal(mod) && !f.isSynthetic()
                                && settable.contains(f.getName()) && f.trySetAccessible()) {
                            out.add(f);
                        }
                    }
                }
                w = out.toArray(NONE);
            } catch (Throwable t) {
                Fatal.check(t);
            }
        }
        watched.put(c, w);
        return w;
    }
}
