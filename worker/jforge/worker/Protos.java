package jforge.worker;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
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
 * copied field by field (no constructor runs, final fields
 * included; see FieldAccess), preserving sharing and cycles.
 *
 * <p>Memory: when the heap is more than 70% full after a collection of candidates, promotions
 * are refused; the Rust side then sees {@code jforge.ProtoMissing} for those structures and
 * re-executes their sequences instead (slower, same results).
 */
final class Protos {
    static final String MISSING = "jforge.ProtoMissing";
    static final String COPY_FAILED = "jforge.CopyFailed";

    private static Object[] protos = new Object[1024];
    /**
     * Candidates in the order they were retained, keyed (retain << 32 | stmt). The Rust side
     * hands out retain ids in increasing order and forgets a prefix, so this is a sorted
     * queue: appended at the end, dropped from the front, looked up by binary search (sorted
     * again first in the rare case a key arrived out of order). No boxing on the hot path.
     */
    private static long[] candKeys = new long[4096];
    private static Object[] candVals = new Object[4096];
    private static int candHead, candTail;
    private static boolean candSorted = true;
    private static int promoteCalls;
    private static boolean full;

    /** How fields are read and written (see FieldAccess); a constant, so the JIT inlines it. */
    private static final FieldAccess FA = FieldAccess.INSTANCE;

    static void retain(int retain, int stmt, Object v) {
        if (retain == 0 || v == null || full) {
            return;
        }
        long key = ((retain & 0xffffffffL) << 32) | (stmt & 0xffffffffL);
        if (candTail == candKeys.length) {
            int live = candTail - candHead;
            if (live * 2 > candKeys.length) {
                candKeys = Arrays.copyOf(candKeys, candKeys.length * 2);
                candVals = Arrays.copyOf(candVals, candVals.length * 2);
            }
            System.arraycopy(candKeys, candHead, candKeys, 0, live);
            System.arraycopy(candVals, candHead, candVals, 0, live);
            Arrays.fill(candVals, live, candTail, null);
            candHead = 0;
            candTail = live;
        }
        if (candTail > candHead && Long.compareUnsigned(candKeys[candTail - 1], key) >= 0) {
            candSorted = false;
        }
        candKeys[candTail] = key;
        candVals[candTail++] = v;
    }

    private static void sortCandidates() {
        int n = candTail - candHead;
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = candHead + i;
        }
        Arrays.sort(idx, (a, b) -> Long.compareUnsigned(candKeys[a], candKeys[b]));
        long[] k = new long[candKeys.length];
        Object[] v = new Object[candVals.length];
        for (int i = 0; i < n; i++) {
            k[i] = candKeys[idx[i]];
            v[i] = candVals[idx[i]];
        }
        candKeys = k;
        candVals = v;
        candHead = 0;
        candTail = n;
        candSorted = true;
    }

    /** Index of candidate `key`, or -1. */
    private static int findCandidate(long key) {
        if (!candSorted) {
            sortCandidates();
        }
        int lo = candHead, hi = candTail - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(candKeys[mid], key);
            if (c == 0) {
                return mid;
            } else if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }

    /** Makes candidate (retain, stmt) prototype `id`; a candidate that is gone is skipped. */
    static void promote(int retain, int stmt, int id) {
        int at = findCandidate(((retain & 0xffffffffL) << 32) | (stmt & 0xffffffffL));
        Object v = at < 0 ? null : candVals[at];
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
        if (upto == 0 || candTail == candHead) {
            return;
        }
        if (!candSorted) {
            sortCandidates();
        }
        long limit = upto & 0xffffffffL;
        int i = candHead;
        while (i < candTail && (candKeys[i] >>> 32) <= limit) {
            candVals[i++] = null;
        }
        candHead = i;
        if (candHead == candTail) {
            candHead = candTail = 0;
        }
    }

    /** A fresh deep copy of prototype `id`, or null when the worker does not hold it. */
    static Object copyOf(int id) {
        Object p = id >= 0 && id < protos.length ? protos[id] : null;
        if (p == null) {
            return null;
        }
        COPIER.reset();
        return COPIER.copy(p);
    }


    private void reset() {
        Arrays.fill(from, 0, Math.min(n, from.length), null);
        Arrays.fill(to, 0, Math.min(n, to.length), null);
        n = 0;
        map = null;
    }

    // ------------------------------------------------------------------------- deep copy

    /** Field layout of a class: FieldAccess keys and kinds (Z B C S I J F D, or L for references). */
    private static final class Layout {
        long[] keys;
        char[] kinds;
        /** False when the class cannot be copied (its instances are shared). */
        boolean copyable;
        /** Why instances cannot be copied although they should be (a field out of reach). */
        String unreachable;
        /** Values (Canon.isValueClass) and Class objects: always shared, never looked at. */
        boolean shared;
        /** The statics of the class's hierarchy and enclosing classes were scanned. */
        boolean scanned;
        /** Some static field seen so far holds an instance of this class. */
        volatile boolean staticHeld;
    }

    private static final ClassValue<Layout> LAYOUT = new ClassValue<>() {
        @Override
        protected Layout computeValue(Class<?> c) {
            Layout l = new Layout();
            l.shared = Canon.isValueClass(c) || c == Class.class;
            ArrayList<Long> keys = new ArrayList<>();
            StringBuilder kinds = new StringBuilder();
            try {
                if (!FA.laysOut(c)) {
                    return l;
                }
                for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                    for (Field f : k.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers())) {
                            continue;
                        }
                        try {
                            keys.add(FA.key(f));
                        } catch (RuntimeException e) {
                            // sharing would alias the prototype: refuse to copy instead
                            l.unreachable = "field " + f + " is out of reach (" + FA.name() + "): " + e;
                            return l;
                        }
                        kinds.append(FieldAccess.kind(f.getType()));
                    }
                }
            } catch (RuntimeException | LinkageError e) {
                return l;
            }
            l.keys = new long[keys.size()];
            for (int i = 0; i < l.keys.length; i++) {
                l.keys[i] = keys.get(i);
            }
            l.kinds = kinds.toString().toCharArray();
            l.copyable = true;
            return l;
        }
    };

    /** Objects held by static fields of classes met so far (shared, never copied). */
    private static final Set<Object> STATIC_HELD = Collections.newSetFromMap(new IdentityHashMap<>());
    private static void scanHierarchy(Class<?> c) {
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            scanStatics(k);
            for (Class<?> e = k.getEnclosingClass(); e != null; e = e.getEnclosingClass()) {
                scanStatics(e);
            }
        }
    }

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
                v = FA.getStatic(f);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                continue;
            }
            if (v != null && STATIC_HELD.add(v)) {
                LAYOUT.get(v.getClass()).staticHeld = true;
            }
        }
    }

    /** Originals and their copies: linear for small structures, a map beyond. */
    private Object[] from = new Object[32];
    private Object[] to = new Object[32];
    private int n;
    private IdentityHashMap<Object, Object> map;

    private Object copied(Object o) {
        if (map != null) {
            return map.get(o);
        }
        for (int i = 0; i < n; i++) {
            if (from[i] == o) {
                return to[i];
            }
        }
        return null;
    }

    private void remember(Object o, Object c) {
        if (map == null && n == from.length) {
            map = new IdentityHashMap<>(n * 4);
            for (int i = 0; i < n; i++) {
                map.put(from[i], to[i]);
            }
        }
        if (map != null) {
            map.put(o, c);
        } else {
            from[n] = o;
            to[n++] = c;
        }
    }

    /**
     * The one copier of this (single-threaded) worker, reset before each copy. Declared after
     * LAYOUT: static fields are set in text order, and the copier's layout cache needs it.
     */
    private static final Protos COPIER = new Protos();

    private final LastClass<Layout> layouts = new LastClass<>(LAYOUT);

    Object copy(Object o) {
        if (o == null) {
            return null;
        }
        Class<?> k = o.getClass();
        Layout l = layouts.get(k);
        if (l.shared) {
            return o;
        }
        Object c = copied(o);
        if (c != null) {
            return c;
        }
        if (!l.scanned) {
            l.scanned = true;
            scanHierarchy(k);
        }
        if (l.staticHeld && STATIC_HELD.contains(o)) {
            return o;
        }
        if (k.isArray()) {
            int n = Array.getLength(o);
            Class<?> e = k.getComponentType();
            Object a = Array.newInstance(e, n);
            remember(o, a);
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
        if (!l.copyable) {
            if (l.unreachable != null) {
                throw new IllegalStateException("cannot copy " + k.getName() + ": " + l.unreachable);
            }
            return o;
        }
        try {
            c = FA.allocate(k);
        } catch (InstantiationException e) {
            throw new IllegalStateException("cannot allocate " + k.getName(), e);
        }
        remember(o, c);
        FieldAccess u = FA;
        long[] keys = l.keys;
        char[] kinds = l.kinds;
        for (int i = 0; i < keys.length; i++) {
            long f = keys[i];
            switch (kinds[i]) {
                case 'Z' -> u.putBoolean(c, f, u.getBoolean(o, f));
                case 'B' -> u.putByte(c, f, u.getByte(o, f));
                case 'C' -> u.putChar(c, f, u.getChar(o, f));
                case 'S' -> u.putShort(c, f, u.getShort(o, f));
                case 'I' -> u.putInt(c, f, u.getInt(o, f));
                case 'J' -> u.putLong(c, f, u.getLong(o, f));
                case 'F' -> u.putFloat(c, f, u.getFloat(o, f));
                case 'D' -> u.putDouble(c, f, u.getDouble(o, f));
                default -> u.putObject(c, f, copy(u.getObject(o, f)));
            }
        }
        return c;
    }
}
