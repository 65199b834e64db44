package jforge.worker;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.regex.Pattern;

/**
 * Canonical form of a rooted heap for `jforge exhaustive` (BEAPI state matching).
 *
 * <p>DFS from the root; fields of each object in a fixed order (the declared instance fields of
 * its class sorted by name, then those of the superclass, and so on); objects are numbered in
 * first-visit order and a visited object is written as its number; the runtime class of every
 * object is written; boxed primitives, Strings and enum constants are written as values; arrays
 * as class, length and elements. Fields whose name (or Declaring.name) matches the omit pattern
 * are skipped. When more than `scope` objects of one class (root excluded) are reachable, or an
 * array is longer than `maxArray`, the walk stops and the form is {@link #OUT_OF_SCOPE}.
 *
 * <p>Settings come from system properties so that they survive worker restarts:
 * jforge.canon.scope, jforge.canon.maxArray, jforge.canon.omit (regex), jforge.canon.text
 * (true: return the linearization itself; otherwise a 128-bit hash of it in hex),
 * jforge.canon.names (with text: each field's value preceded by `Declaring.name=`, so that
 * `jforge exhaustive` can name the fields whose values keep growing when a search hits its
 * limit; never used for state matching).
 */
final class Canon {
    static final String OUT_OF_SCOPE = "!scope";
    static final int SCOPE = Integer.getInteger("jforge.canon.scope", Integer.MAX_VALUE);
    static final int MAX_ARRAY = Integer.getInteger("jforge.canon.maxArray", Integer.MAX_VALUE);
    static final Pattern OMIT = compile(System.getProperty("jforge.canon.omit", ""));
    static final boolean TEXT = Boolean.getBoolean("jforge.canon.text");
    static final boolean NAMES = TEXT && Boolean.getBoolean("jforge.canon.names");

    private static Pattern compile(String s) {
        return s.isEmpty() ? null : Pattern.compile(s);
    }

    private static final class ScopeExceeded extends RuntimeException {
        ScopeExceeded() {
            super(null, null, false, false);
        }
    }

    private static final ScopeExceeded EXCEEDED = new ScopeExceeded();

    /** How fields are read (see FieldAccess); a constant, so the JIT inlines its calls. */
    private static final FieldAccess FA = FieldAccess.INSTANCE;

    /**
     * The fields of a class in form order, and how to read them: through FieldAccess keys (no
     * boxing of primitives, no access checks per read) where it lays the class out, else
     * through the Field (hidden classes, records).
     */
    private static final class Layout {
        Field[] fields;
        /** FieldAccess keys. */
        long[] keys;
        /** Z B C S I J F D for primitives, L for references. */
        char[] kinds;
        /** Read through keys (else through the Fields). */
        boolean direct;
        long nameHash;
        /** Instances are values ({@link #isValueClass}). */
        boolean value;
        /** `Declaring.name=` per field (only with {@link #NAMES}). */
        String[] names;
    }

    private static final ClassValue<Layout> LAYOUT = new ClassValue<>() {
        @Override
        protected Layout computeValue(Class<?> c) {
            if (isValueClass(c)) {
                // written as values, never walked
                Layout v = new Layout();
                v.value = true;
                v.nameHash = nameHash(c.getName());
                v.fields = new Field[0];
                v.keys = new long[0];
                v.kinds = new char[0];
                return v;
            }
            ArrayList<Field> all = new ArrayList<>();
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                Field[] fs = k.getDeclaredFields();
                Arrays.sort(fs, (a, b) -> a.getName().compareTo(b.getName()));
                for (Field f : fs) {
                    if (Modifier.isStatic(f.getModifiers())) {
                        continue;
                    }
                    if (OMIT != null && (OMIT.matcher(f.getName()).matches()
                            || OMIT.matcher(k.getName() + "." + f.getName()).matches())) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                    } catch (RuntimeException e) {
                        // not opened to us: the field cannot be read and is left out
                        continue;
                    }
                    all.add(f);
                }
            }
            Layout l = new Layout();
            l.nameHash = nameHash(c.getName());
            l.fields = all.toArray(new Field[0]);
            l.keys = new long[l.fields.length];
            l.kinds = new char[l.fields.length];
            l.direct = FA.laysOut(c);
            if (NAMES) {
                l.names = new String[l.fields.length];
                for (int i = 0; i < l.fields.length; i++) {
                    Field f = l.fields[i];
                    l.names[i] = f.getDeclaringClass().getName() + "." + f.getName() + "=";
                }
            }
            for (int i = 0; i < l.fields.length; i++) {
                l.kinds[i] = FieldAccess.kind(l.fields[i].getType());
                if (l.direct) {
                    try {
                        l.keys[i] = FA.key(l.fields[i]);
                    } catch (RuntimeException e) {
                        l.direct = false;
                    }
                }
            }
            return l;
        }
    };

    /** The linearization (text mode only). */
    private final StringBuilder sb = TEXT ? new StringBuilder(256) : null;
    /** Objects numbered so far: linear for small heaps, a map beyond. */
    private Object[] seen = new Object[16];
    private int nseen;
    private IdentityHashMap<Object, Integer> ids;
    /** Objects per class so far (root excluded). */
    private Class<?>[] cls = new Class<?>[8];
    private int[] cnt = new int[8];
    private int ncls;

    /** The canonical form of `root` (text or hash), or OUT_OF_SCOPE. */
    static String of(Object root) {
        if (root == null) {
            return "null";
        }
        Canon c = new Canon();
        try {
            c.walk(root, true);
        } catch (ScopeExceeded e) {
            return OUT_OF_SCOPE;
        }
        if (TEXT) {
            return c.sb.toString();
        }
        long[] h = new long[2];
        c.finish(h);
        return String.format("%016x%016x", h[0], h[1]);
    }

    /**
     * The 128-bit hash of the canonical form of a non-null root into h (the same hash
     * {@link #of} writes in hex): returns 0, or 2 when the root is out of scope.
     */
    static int hashOf(Object root, long[] h) {
        Canon c = REUSED;
        c.reset();
        try {
            c.walk(root, true);
        } catch (ScopeExceeded e) {
            return 2;
        }
        c.finish(h);
        return 0;
    }

    /** The walker hashOf reuses (the worker is single-threaded), reset before each walk. */
    private static final Canon REUSED = new Canon();

    private void reset() {
        Arrays.fill(seen, 0, nseen, null);
        nseen = 0;
        ids = null;
        Arrays.fill(cls, 0, ncls, null);
        ncls = 0;
        h1 = 0x9E3779B97F4A7C15L;
        h2 = 0xC2B2AE3D27D4EB4FL;
        ntok = 0;
    }

    /**
     * Whether instances of c are written as values and shared by copies: Strings, java.lang
     * numbers, Booleans, Characters, enum constants.
     */
    static boolean isValueClass(Class<?> c) {
        return c == String.class || Number.class.isAssignableFrom(c) && c.getName().startsWith("java.lang.")
                || c == Boolean.class || c == Character.class || Enum.class.isAssignableFrom(c);
    }

    /** The number of an object already visited, or -1. */
    private int idOf(Object o) {
        if (ids != null) {
            Integer id = ids.get(o);
            return id == null ? -1 : id;
        }
        for (int i = 0; i < nseen; i++) {
            if (seen[i] == o) {
                return i;
            }
        }
        return -1;
    }

    private void number(Object o) {
        if (ids != null) {
            ids.put(o, ids.size());
            return;
        }
        if (nseen == seen.length) {
            ids = new IdentityHashMap<>(nseen * 4);
            for (int i = 0; i < nseen; i++) {
                ids.put(seen[i], i);
            }
            ids.put(o, nseen);
            return;
        }
        seen[nseen++] = o;
    }

    private void count(Class<?> c) {
        for (int i = 0; i < ncls; i++) {
            if (cls[i] == c) {
                if (++cnt[i] > SCOPE) {
                    throw EXCEEDED;
                }
                return;
            }
        }
        if (ncls == cls.length) {
            cls = Arrays.copyOf(cls, ncls * 2);
            cnt = Arrays.copyOf(cnt, ncls * 2);
        }
        cls[ncls] = c;
        cnt[ncls++] = 1;
        if (1 > SCOPE) {
            throw EXCEEDED;
        }
    }

    private final LastClass<Layout> layouts = new LastClass<>(LAYOUT);

    private void walk(Object o, boolean root) {
        if (o == null) {
            sym('N');
            return;
        }
        Class<?> c = o.getClass();
        Layout l = layouts.get(c);
        if (l.value) {
            value(o);
            return;
        }
        int id = idOf(o);
        if (id >= 0) {
            sym('#');
            num(id);
            return;
        }
        if (!root) {
            count(c);
        }
        number(o);
        if (TEXT) {
            sb.append(c.getName());
        } else {
            put(l.nameHash);
        }
        if (c.isArray()) {
            array(o, c);
            return;
        }
        sym('{');
        Field[] fs = l.fields;
        for (int i = 0; i < fs.length; i++) {
            if (NAMES) {
                sb.append(l.names[i]);
            }
            if (l.direct) {
                field(o, l.keys[i], l.kinds[i]);
            } else {
                Object v;
                try {
                    v = fs[i].get(o);
                } catch (IllegalAccessException e) {
                    if (NAMES) {
                        sb.append("N,"); // the name was written: keep the text parseable
                    }
                    continue;
                }
                if (l.kinds[i] != 'L') {
                    value(v);
                } else {
                    walk(v, false);
                }
            }
            sym(',');
        }
        sym('}');
    }

    /** A field read through its key, written exactly as {@link #value} writes its boxed value. */
    private void field(Object o, long off, char kind) {
        FieldAccess u = FA;
        if (TEXT) {
            switch (kind) {
                case 'I' -> sb.append('I').append(u.getInt(o, off));
                case 'J' -> sb.append('L').append(u.getLong(o, off));
                case 'S' -> sb.append('S').append(u.getShort(o, off));
                case 'B' -> sb.append('B').append(u.getByte(o, off));
                case 'Z' -> sb.append('B').append(u.getBoolean(o, off));
                case 'C' -> sb.append('C').append((int) u.getChar(o, off));
                case 'F' -> sb.append('F').append(Integer.toHexString(Float.floatToRawIntBits(u.getFloat(o, off))));
                case 'D' -> sb.append('D').append(Long.toHexString(Double.doubleToRawLongBits(u.getDouble(o, off))));
                default -> walk(u.getObject(o, off), false);
            }
            return;
        }
        // the same tags as value() uses for the boxed values
        switch (kind) {
            case 'I' -> tagged('I', u.getInt(o, off));
            case 'J' -> tagged('L', u.getLong(o, off));
            case 'S' -> tagged('S', u.getShort(o, off));
            case 'B' -> tagged('B', u.getByte(o, off));
            case 'Z' -> tagged('Z', u.getBoolean(o, off) ? 1 : 0);
            case 'C' -> tagged('C', u.getChar(o, off));
            case 'F' -> tagged('F', Float.floatToRawIntBits(u.getFloat(o, off)));
            case 'D' -> tagged('D', Double.doubleToRawLongBits(u.getDouble(o, off)));
            default -> walk(u.getObject(o, off), false);
        }
    }

    private void array(Object o, Class<?> c) {
        int len = Array.getLength(o);
        if (len > MAX_ARRAY) {
            throw EXCEEDED;
        }
        sym('[');
        num(len);
        sym(':');
        if (o instanceof Object[] a) {
            for (Object v : a) {
                walk(v, false);
                sym(',');
            }
        } else if (o instanceof int[] a && !TEXT) {
            for (int v : a) {
                tagged('I', v);
            }
        } else {
            for (int i = 0; i < len; i++) {
                value(Array.get(o, i));
                sym(',');
            }
        }
        sym(']');
    }

    private void value(Object v) {
        if (!TEXT) {
            valueHash(v);
            return;
        }
        if (v instanceof String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (ch == '"' || ch == '\\') {
                    sb.append('\\');
                }
                if (ch < 0x20 || ch > 0x7e) {
                    sb.append(String.format("\\u%04x", (int) ch));
                } else {
                    sb.append(ch);
                }
            }
            sb.append('"');
        } else if (v instanceof Enum<?> e) {
            sb.append(e.getDeclaringClass().getName()).append('.').append(e.name());
        } else if (v instanceof Double d) {
            sb.append("D").append(Long.toHexString(Double.doubleToRawLongBits(d)));
        } else if (v instanceof Float f) {
            sb.append("F").append(Integer.toHexString(Float.floatToRawIntBits(f)));
        } else if (v instanceof Character ch) {
            sb.append("C").append((int) ch.charValue());
        } else {
            // Integer, Long, Short, Byte, Boolean, BigInteger... : type letter and text
            sb.append(v.getClass().getSimpleName().charAt(0)).append(v);
        }
    }

    // ------------------------------------------------------------------ hash mode
    //
    // Without jforge.canon.text the form is never written out: the same tokens go straight
    // into a 128-bit hash (two 64-bit lanes), a class as the 64-bit hash of its name, a number
    // as its bits. Symbols are offset so they cannot be mistaken for small numbers. Two
    // structures get equal hashes when their token streams are equal, i.e. when their texts
    // are equal; every worker computes the same hash for the same form.

    private long h1 = 0x9E3779B97F4A7C15L, h2 = 0xC2B2AE3D27D4EB4FL, ntok;
    // (reset() restores these start values)

    private void put(long x) {
        ntok++;
        h1 = Long.rotateLeft((h1 ^ x) * 0x9FB21C651E98DF25L, 29);
        h2 = (h2 + Long.rotateLeft(x, 17)) * 0xFF51AFD7ED558CCDL;
        h2 ^= h2 >>> 31;
    }

    private static final long SYM = 0x5EED_0000_0000_0000L;

    private void sym(char c) {
        if (TEXT) {
            sb.append(c);
        } else {
            put(SYM + c);
        }
    }

    private void num(long v) {
        if (TEXT) {
            sb.append(v);
        } else {
            put(v);
        }
    }

    private void tagged(char tag, long v) {
        put(SYM + tag);
        put(v);
    }

    private void valueHash(Object v) {
        if (v instanceof String s) {
            put(SYM + '"');
            put(s.length());
            long w = 0;
            int i = 0;
            for (; i < s.length(); i++) {
                w = (w << 16) | s.charAt(i);
                if ((i & 3) == 3) {
                    put(w);
                    w = 0;
                }
            }
            if ((i & 3) != 0) {
                put(w);
            }
        } else if (v instanceof Enum<?> e) {
            put(SYM + 'E');
            put(LAYOUT.get(e.getDeclaringClass()).nameHash);
            put(e.ordinal());
        } else if (v instanceof Integer x) {
            tagged('I', x);
        } else if (v instanceof Long x) {
            tagged('L', x);
        } else if (v instanceof Short x) {
            tagged('S', x);
        } else if (v instanceof Byte x) {
            tagged('B', x);
        } else if (v instanceof Boolean x) {
            tagged('Z', x ? 1 : 0);
        } else if (v instanceof Character x) {
            tagged('C', x);
        } else if (v instanceof Float x) {
            tagged('F', Float.floatToRawIntBits(x));
        } else if (v instanceof Double x) {
            tagged('D', Double.doubleToRawLongBits(x));
        } else {
            // other java.lang numbers (none today): by class and text
            put(SYM + 'O');
            put(LAYOUT.get(v.getClass()).nameHash);
            valueHash(v.toString());
        }
    }

    private void finish(long[] out) {
        out[0] = mix(h1 ^ ntok);
        out[1] = mix(h2 ^ 0x5851F42D4C957F2DL);
    }

    /** A 64-bit hash of a class name (stable across JVMs). */
    static long nameHash(String name) {
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < name.length(); i++) {
            h = (h ^ name.charAt(i)) * 0x100000001B3L;
        }
        return mix(h);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
