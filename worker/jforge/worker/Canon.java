package jforge.worker;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * (true: return the linearization itself; otherwise a 128-bit hash of it in hex).
 */
final class Canon {
    static final String OUT_OF_SCOPE = "!scope";
    static final int SCOPE = Integer.getInteger("jforge.canon.scope", Integer.MAX_VALUE);
    static final int MAX_ARRAY = Integer.getInteger("jforge.canon.maxArray", Integer.MAX_VALUE);
    static final Pattern OMIT = compile(System.getProperty("jforge.canon.omit", ""));
    static final boolean TEXT = Boolean.getBoolean("jforge.canon.text");

    private static Pattern compile(String s) {
        return s.isEmpty() ? null : Pattern.compile(s);
    }

    private static final class ScopeExceeded extends RuntimeException {
        ScopeExceeded() {
            super(null, null, false, false);
        }
    }

    private static final ScopeExceeded EXCEEDED = new ScopeExceeded();
    private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> c) {
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
            return all.toArray(new Field[0]);
        }
    };

    private final StringBuilder sb = new StringBuilder(256);
    private final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
    private final HashMap<Class<?>, int[]> counts = new HashMap<>();

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
        return TEXT ? c.sb.toString() : hash(c.sb);
    }

    /**
     * The 128-bit hash of the canonical form of a non-null root into h (the same hash
     * {@link #of} writes in hex): returns 0, or 2 when the root is out of scope.
     */
    static int hashOf(Object root, long[] h) {
        Canon c = new Canon();
        try {
            c.walk(root, true);
        } catch (ScopeExceeded e) {
            return 2;
        }
        hash(c.sb, h);
        return 0;
    }

    static boolean isValue(Object v) {
        return v instanceof String || v instanceof Number && v.getClass().getName().startsWith("java.lang.")
                || v instanceof Boolean || v instanceof Character || v instanceof Enum<?>;
    }

    private void walk(Object o, boolean root) {
        if (o == null) {
            sb.append('N');
            return;
        }
        if (isValue(o)) {
            value(o);
            return;
        }
        Integer id = ids.get(o);
        if (id != null) {
            sb.append('#').append(id.intValue());
            return;
        }
        Class<?> c = o.getClass();
        if (!root) {
            int[] n = counts.computeIfAbsent(c, k -> new int[1]);
            if (++n[0] > SCOPE) {
                throw EXCEEDED;
            }
        }
        ids.put(o, ids.size());
        sb.append(c.getName());
        if (c.isArray()) {
            int len = Array.getLength(o);
            if (len > MAX_ARRAY) {
                throw EXCEEDED;
            }
            sb.append('[').append(len).append(':');
            Class<?> e = c.getComponentType();
            for (int i = 0; i < len; i++) {
                if (e.isPrimitive()) {
                    value(Array.get(o, i));
                } else {
                    walk(Array.get(o, i), false);
                }
                sb.append(',');
            }
            sb.append(']');
            return;
        }
        sb.append('{');
        for (Field f : FIELDS.get(c)) {
            Object v;
            try {
                v = f.get(o);
            } catch (IllegalAccessException e) {
                continue;
            }
            if (f.getType().isPrimitive()) {
                value(v);
            } else {
                walk(v, false);
            }
            sb.append(',');
        }
        sb.append('}');
    }

    private void value(Object v) {
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

    /** Two independent 64-bit hashes (multiply-xorshift with different constants). */
    static String hash(CharSequence s) {
        long[] h = new long[2];
        hash(s, h);
        return String.format("%016x%016x", h[0], h[1]);
    }

    static void hash(CharSequence s, long[] out) {
        long h1 = 0x9E3779B97F4A7C15L ^ s.length(), h2 = 0xC2B2AE3D27D4EB4FL + s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            h1 = (h1 ^ c) * 0x100000001B3L;
            h1 ^= h1 >>> 29;
            h2 = (h2 + c) * 0xFF51AFD7ED558CCDL;
            h2 ^= h2 >>> 31;
        }
        out[0] = mix(h1);
        out[1] = mix(h2 ^ 0x5851F42D4C957F2DL);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
