package jforge.worker;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Set;

/**
 * Prototype reuse for `jforge exhaustive`: structures kept by the search stay live in the
 * worker that built them, and extending one costs a deep copy plus one call instead of
 * re-executing the whole sequence that built it.
 *
 * <p>Life of a structure: after a Canon-mode run with a non-zero retain id, every value whose
 * canonical form was computed (and is in scope) is held as a <em>candidate</em> under
 * (retain id, statement). The Rust side decides which forms are new and, with a later request,
 * <em>promotes</em> those candidates to prototypes under the kept index it gave them, and
 * forgets the other candidates. A statement of kind 3 then stands for a fresh deep copy of a
 * prototype.
 *
 * <p>The copy must behave like the object a re-execution would build. Immutable values
 * (Strings, boxed primitives, enum constants, Class objects) are shared, as are objects held
 * in static fields of the classes met during the copy (and of their superclasses and
 * enclosing classes): code such as {@code elementData == DEFAULTCAPACITY_EMPTY_ELEMENTDATA}
 * compares against them by identity. Instances of classes whose fields cannot be laid out
 * (hidden classes such as lambdas, records) are shared too. Everything else reachable is
 * copied field by field with {@code sun.misc.Unsafe} (no constructor runs, final fields
 * included), preserving sharing and cycles.
 *
 * <p>Memory: when the heap is more than 70% full after a collection of candidates, promotions
 * are refused; the Rust side then sees {@code jforge.ProtoMissing} for those structures and
 * re-executes their sequences instead (slower, same results).
 */
final class Protos {
    static final String MISSING = "jforge.ProtoMissing";
    static final String COPY_FAILED = "jforge.CopyFailed";

    private static Object[] protos = new Object[1024];
    private static final HashMap<Long, Object> candidates = new HashMap<>();
    private static int promoteCalls;
    private static boolean full;

    static final sun.misc.Unsafe U = unsafe();

    private static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static long maxRetain;

    static void retain(int retain, int stmt, Object v) {
        if (retain != 0 && v != null && !full) {
            maxRetain = Math.max(maxRetain, retain & 0xffffffffL);
            candidates.put(((long) retain << 32) | (stmt & 0xffffffffL), v);
        }
    }

    /** Makes candidate (retain, stmt) prototype `id`; a candidate that is gone is skipped. */
    static void promote(int retain, int stmt, int id) {
        Object v = candidates.get(((long) retain << 32) | (stmt & 0xffffffffL));
        if (v == null || id < 0 || full) {
            return;
        }
        if (id >= protos.length) {
            protos = Arrays.copyOf(protos, Math.max(id + 1, protos.length * 2));
        }
        protos[id] = v;
        if ((++promoteCalls & 0x3fff) == 0) {
            Runtime rt = Runtime.getRuntime();
            long used = rt.totalMemory() - rt.freeMemory();
            if (used > rt.maxMemory() * 0.7) {
                System.gc();
                used = rt.totalMemory() - rt.freeMemory();
                full = used > rt.maxMemory() * 0.7;
            }
        }
    }

    /** Forgets every candidate whose retain id is at most `upto` (unsigned). */
    static void forget(int upto) {
        if (upto == 0 || candidates.isEmpty()) {
            return;
        }
        long limit = upto & 0xffffffffL;
        if (limit >= maxRetain) {
            candidates.clear();
            return;
        }
        Iterator<Long> it = candidates.keySet().iterator();
        while (it.hasNext()) {
            if ((it.next() >>> 32) <= limit) {
                it.remove();
            }
        }
    }

    /** A fresh deep copy of prototype `id`, or null when the worker does not hold it. */
    static Object copyOf(int id) {
        Object p = id >= 0 && id < protos.length ? protos[id] : null;
        if (p == null) {
            return null;
        }
        return new Protos().copy(p);
    }

    // ------------------------------------------------------------------------- deep copy

    /** Field layout of a class: offsets and kinds (Z B C S I J F D, or L for references). */
    private static final class Layout {
        long[] offsets;
        char[] kinds;
        /** Null when the class cannot be copied (its instances are shared). */
        boolean copyable;
    }

    private static final ClassValue<Layout> LAYOUT = new ClassValue<>() {
        @Override
        protected Layout computeValue(Class<?> c) {
            Layout l = new Layout();
            ArrayList<Long> offs = new ArrayList<>();
            StringBuilder kinds = new StringBuilder();
            try {
                if (U == null || c.isHidden() || c.isRecord()) {
                    return l;
                }
                for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                    for (Field f : k.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers())) {
                            continue;
                        }
                        offs.add(U.objectFieldOffset(f));
                        Class<?> t = f.getType();
                        kinds.append(t == boolean.class ? 'Z' : t.isPrimitive() ? Worker.primOf(t) : 'L');
                    }
                }
            } catch (RuntimeException | LinkageError e) {
                return l;
            }
            l.offsets = new long[offs.size()];
            for (int i = 0; i < l.offsets.length; i++) {
                l.offsets[i] = offs.get(i);
            }
            l.kinds = kinds.toString().toCharArray();
            l.copyable = true;
            return l;
        }
    };

    /** Objects held by static fields of classes met so far (shared, never copied). */
    private static final Set<Object> STATIC_HELD = Collections.newSetFromMap(new IdentityHashMap<>());
    private static final ClassValue<Boolean> SCANNED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                scanStatics(k);
                for (Class<?> e = k.getEnclosingClass(); e != null; e = e.getEnclosingClass()) {
                    scanStatics(e);
                }
            }
            return Boolean.TRUE;
        }
    };

    private static void scanStatics(Class<?> k) {
        Field[] fs;
        try {
            fs = k.getDeclaredFields();
        } catch (RuntimeException | LinkageError e) {
            return;
        }
        for (Field f : fs) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                continue;
            }
            Object v = null;
            try {
                if (U != null) {
                    @SuppressWarnings("deprecation")
                    Object base = U.staticFieldBase(f);
                    @SuppressWarnings("deprecation")
                    long off = U.staticFieldOffset(f);
                    v = U.getObject(base, off);
                } else {
                    f.setAccessible(true);
                    v = f.get(null);
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                continue;
            }
            if (v != null) {
                STATIC_HELD.add(v);
            }
        }
    }

    private final IdentityHashMap<Object, Object> map = new IdentityHashMap<>();

    Object copy(Object o) {
        if (o == null || Canon.isValue(o) || o instanceof Class<?>) {
            return o;
        }
        Object c = map.get(o);
        if (c != null) {
            return c;
        }
        Class<?> k = o.getClass();
        SCANNED.get(k);
        if (STATIC_HELD.contains(o)) {
            return o;
        }
        if (k.isArray()) {
            int n = Array.getLength(o);
            Class<?> e = k.getComponentType();
            Object a = Array.newInstance(e, n);
            map.put(o, a);
            if (e.isPrimitive()) {
                System.arraycopy(o, 0, a, 0, n);
            } else {
                Object[] src = (Object[]) o;
                Object[] dst = (Object[]) a;
                for (int i = 0; i < n; i++) {
                    dst[i] = copy(src[i]);
                }
            }
            return a;
        }
        Layout l = LAYOUT.get(k);
        if (!l.copyable) {
            return o;
        }
        try {
            c = U.allocateInstance(k);
        } catch (InstantiationException e) {
            throw new IllegalStateException("cannot allocate " + k.getName(), e);
        }
        map.put(o, c);
        long[] offs = l.offsets;
        char[] kinds = l.kinds;
        for (int i = 0; i < offs.length; i++) {
            long f = offs[i];
            switch (kinds[i]) {
                case 'Z' -> U.putBoolean(c, f, U.getBoolean(o, f));
                case 'B' -> U.putByte(c, f, U.getByte(o, f));
                case 'C' -> U.putChar(c, f, U.getChar(o, f));
                case 'S' -> U.putShort(c, f, U.getShort(o, f));
                case 'I' -> U.putInt(c, f, U.getInt(o, f));
                case 'J' -> U.putLong(c, f, U.getLong(o, f));
                case 'F' -> U.putFloat(c, f, U.getFloat(o, f));
                case 'D' -> U.putDouble(c, f, U.getDouble(o, f));
                default -> U.putObject(c, f, copy(U.getObject(o, f)));
            }
        }
        return c;
    }
}
