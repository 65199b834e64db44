package jforge.worker;

import java.lang.reflect.Array;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;

import static jforge.worker.Proto.EXC_MESSAGE;
import static jforge.worker.Proto.EXC_OUTSIDE_JDK;
import static jforge.worker.Proto.O_EXC;
import static jforge.worker.Proto.O_NULL;
import static jforge.worker.Proto.O_OBJECT;
import static jforge.worker.Proto.O_VALUE;
import static jforge.worker.Proto.O_VOID;
import static jforge.worker.Proto.V_ARRAY;
import static jforge.worker.Proto.V_DIGEST;
import static jforge.worker.Proto.V_BOOLEAN;
import static jforge.worker.Proto.V_BYTE;
import static jforge.worker.Proto.V_CHAR;
import static jforge.worker.Proto.V_DOUBLE;
import static jforge.worker.Proto.V_ENUM;
import static jforge.worker.Proto.V_FLOAT;
import static jforge.worker.Proto.V_INT;
import static jforge.worker.Proto.V_LONG;
import static jforge.worker.Proto.V_NULL;
import static jforge.worker.Proto.V_SHORT;
import static jforge.worker.Proto.V_STRING;

/**
 * Encodes what statements did into the RESULT frame (outcome tags Proto.O_*): values
 * (primitives, boxed values, Strings, enum constants), other objects with a novelty
 * fingerprint, exceptions with their nearest public class (what a test may name in a catch),
 * and jforge's own pseudo-exceptions (jforge.MalformedSequence, jforge.ExcessiveOutput, ...).
 * Why fingerprints: novelty is decided in Rust, so a class that overrides equals is reported
 * as (class, hashCode()) mixed, and equal values collide as the contract requires; other
 * objects are identity (always new). Class names go through a per-worker string table: each
 * is sent once.
 */
final class Outcomes {
    static final int MAX_STRING = 10_000;
    static final int MAX_MESSAGE = 500;
    static final String MALFORMED = "jforge.MalformedSequence";
    /** An observer stopped at its limit, or skipped after one was (Contracts.observe). */
    static final String OBSERVER_STOPPED = "jforge.ObserverStopped";
    /** Longest array reported as a value (MODE_OBSERVE): longer ones stay objects. */
    static final int MAX_ARRAY = 64;
    /** Most bytes one array value may take in a frame (its Strings included). */
    static final int MAX_ARRAY_BYTES = 8192;

    /**
     * Whether arrays of values are reported as values (V_ARRAY): in MODE_OBSERVE only, where
     * their contents become assertions. Generation keeps them objects (reused by identity).
     */
    boolean arrays;

    /**
     * Whether an exception's thrower is reported (EXC_OUTSIDE_JDK): in MODE_OBSERVE only,
     * where its message may become an assertion. Generation does not pay for the stack
     * trace of every exception it sees.
     */
    boolean throwers;

    /** The outcome bytes of the request running (mirrored into the progress file). */
    final Buf outc = new Buf(1 << 12);
    /** The rest of its RESULT frame: violations, observers, forms. */
    final Buf tail = new Buf(1 << 10);

    private final Coverage coverage;
    private final HashMap<String, Integer> classIds = new HashMap<>();
    private final HashMap<Class<?>, Boolean> overridesEquals = new HashMap<>();
    private final HashMap<Class<?>, String> publicNames = new HashMap<>();

    Outcomes(Coverage coverage) {
        this.coverage = coverage;
    }

    /** The outcome of a statement that returned r (isVoid: a void method or a field write). */
    void result(Object r, boolean isVoid) {
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
        if (writeValue(outc, r) || (arrays && writeArray(outc, r))) {
            return;
        }
        outc.n = mark;
        outc.u8(O_OBJECT);
        Class<?> c = r.getClass();
        putString(outc, c.getName());
        if (overrides(c)) {
            int h;
            Object live = coverage.pause();
            try {
                h = r.hashCode();
            } catch (Throwable t) {
                Fatal.check(t);
                outc.u8(0);
                return;
            } finally {
                coverage.resume(live);
            }
            outc.u8(1);
            outc.i64(mix(((long) c.getName().hashCode() << 32) ^ (h & 0xffffffffL)));
        } else {
            outc.u8(0);
        }
    }

    /** A pseudo-exception outcome jforge itself raises (class names under `jforge.`). */
    void flagged(String cls, String why) {
        outc.u8(O_EXC);
        putString(outc, cls);
        putString(outc, cls);
        outc.u8(EXC_MESSAGE);
        outc.str(truncate(why));
    }

    /** The outcome of a statement that threw t. */
    void exception(Throwable t) {
        outc.u8(O_EXC);
        Class<?> c = t.getClass();
        putString(outc, c.getName());
        putString(outc, publicName(c));
        String msg = null;
        try {
            msg = t.getMessage();
        } catch (Throwable e) {
            Fatal.check(e);
        }
        int flags = throwers && thrownOutsideJdk(t) ? EXC_OUTSIDE_JDK : 0;
        if (msg == null) {
            outc.u8(flags);
        } else {
            outc.u8(flags | EXC_MESSAGE);
            outc.str(truncate(msg));
        }
    }

    /**
     * Whether the top frame of t's stack trace is code outside the JDK (and outside jforge's
     * own runtime): a message such code wrote is its own, the same on every JDK, so a test can
     * assert it; a JDK's messages change between releases.
     */
    private static final String[] JDK_PREFIXES = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.", "org.xml.", "org.ietf."
    };

    static boolean thrownOutsideJdk(Throwable t) {
        StackTraceElement[] st;
        try {
            st = t.getStackTrace();
        } catch (Throwable e) {
            Fatal.check(e);
            return false;
        }
        if (st == null || st.length == 0 || st[0] == null) {
            return false;
        }
        String c = st[0].getClassName();
        // the prefixes of jforge's model::release::is_jdk_class, and jforge's own runtime
        for (String p : JDK_PREFIXES) {
            if (c.startsWith(p)) {
                return false;
            }
        }
        return !c.startsWith("jforge.");
    }

    /**
     * Worker string table (class names): returns the id, or -1-id when the name is new (the
     * caller then sends the id followed by the string).
     */
    private int stringId(String name) {
        Integer id = classIds.get(name);
        if (id != null) {
            return id;
        }
        int nid = classIds.size();
        classIds.put(name, nid);
        return -1 - nid;
    }

    /** How many class names were sent so far (the next new name gets this id). */
    int classCount() {
        return classIds.size();
    }

    /**
     * Forgets the names from id {@code count} on: their bytes were dropped from the outcomes
     * (Executor.crashed cuts the outcomes of a crashed statement), so jforge never saw them.
     */
    void forgetClassesFrom(int count) {
        if (classIds.size() > count) {
            classIds.values().removeIf(id -> id >= count);
        }
    }

    /** A class name through the string table. */
    void putString(Buf b, String name) {
        int id = stringId(name);
        if (id < 0) {
            b.i32(-1 - id);
            b.str(name);
        } else {
            b.i32(id);
        }
    }

    static String truncate(String s) {
        return s.length() > MAX_MESSAGE ? s.substring(0, MAX_MESSAGE) : s;
    }

    private String publicName(Class<?> c) {
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

    private static boolean allPublic(Class<?> k) {
        for (Class<?> x = k; x != null; x = x.getEnclosingClass()) {
            if (!Modifier.isPublic(x.getModifiers()) || x.isAnonymousClass() || x.isLocalClass()) {
                return false;
            }
        }
        Module m = k.getModule();
        return !m.isNamed() || m.isExported(k.getPackageName());
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private boolean overrides(Class<?> c) {
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

    private static boolean wellFormed(String s) {
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

    /**
     * An array of at most MAX_ARRAY primitives, or of references that are each null or a
     * value of {@link #writeValue} (no nested arrays), as V_ARRAY: component class name,
     * length, elements. False (nothing written) for anything else.
     */
    static boolean writeArray(Buf b, Object v) {
        Class<?> c = v.getClass();
        if (!c.isArray()) {
            return false;
        }
        if (c.getComponentType().isArray()) {
            return writeDigest(b, v);
        }
        int n = Array.getLength(v);
        if (n > MAX_ARRAY) {
            return writeDigest(b, v);
        }
        int mark = b.n;
        b.u8(V_ARRAY);
        b.str(c.getComponentType().getName());
        b.i32(n);
        for (int i = 0; i < n; i++) {
            Object e = Array.get(v, i);
            if (e == null) {
                b.u8(V_NULL);
            } else if (!writeValue(b, e) || b.n - mark > MAX_ARRAY_BYTES) {
                b.n = mark;
                return writeDigest(b, v);
            }
        }
        return true;
    }

    /** Most leaves a digested array may have (deeper or longer ones stay objects). */
    static final int MAX_DIGEST_LEAVES = 1 << 20;

    /**
     * An array too long or too nested to write out, whose leaves are primitives, boxed values,
     * Strings or null, as V_DIGEST: its class name, length and the hash a test recomputes
     * with java.util.Arrays (deepHashCode; hashCode for a primitive array). Why: a returned
     * String[][] of 96 rows or a 76-byte encoding was asserted by nothing, so a fault that
     * changed one element went unseen (issue 34, item 4). Those hashes are specified by the
     * JDK's documentation from the elements' own (String, boxed) hashes, so they are the same
     * in every JVM; enums and other objects hash by identity and are not digested.
     */
    static boolean writeDigest(Buf b, Object v) {
        int[] leaves = {0};
        if (!digestible(v, leaves)) {
            return false;
        }
        b.u8(V_DIGEST);
        b.str(v.getClass().getName());
        b.i32(Array.getLength(v));
        b.i32(v instanceof Object[] ? Arrays.deepHashCode((Object[]) v) : primitiveHash(v));
        return true;
    }

    private static boolean digestible(Object v, int[] leaves) {
        Class<?> c = v.getClass();
        int n = Array.getLength(v);
        if (c.getComponentType().isPrimitive()) {
            leaves[0] += n;
            return leaves[0] <= MAX_DIGEST_LEAVES;
        }
        for (int i = 0; i < n; i++) {
            Object e = ((Object[]) v)[i];
            if (e == null) {
                continue;
            }
            Class<?> k = e.getClass();
            if (k.isArray()) {
                if (!digestible(e, leaves)) {
                    return false;
                }
            } else if (k == String.class || k == Integer.class || k == Long.class
                    || k == Boolean.class || k == Character.class || k == Double.class
                    || k == Float.class || k == Short.class || k == Byte.class) {
                if (++leaves[0] > MAX_DIGEST_LEAVES) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return true;
    }

    private static int primitiveHash(Object v) {
        if (v instanceof int[]) return Arrays.hashCode((int[]) v);
        if (v instanceof long[]) return Arrays.hashCode((long[]) v);
        if (v instanceof byte[]) return Arrays.hashCode((byte[]) v);
        if (v instanceof char[]) return Arrays.hashCode((char[]) v);
        if (v instanceof short[]) return Arrays.hashCode((short[]) v);
        if (v instanceof boolean[]) return Arrays.hashCode((boolean[]) v);
        if (v instanceof float[]) return Arrays.hashCode((float[]) v);
        return Arrays.hashCode((double[]) v);
    }

    /** Primitive/boxed/String/enum values; false (nothing written) for anything else. */
    static boolean writeValue(Buf b, Object v) {
        Class<?> c = v.getClass();
        if (c == Integer.class) {
            b.u8(V_INT);
            b.i32((Integer) v);
        } else if (c == String.class) {
            String s = (String) v;
            if (s.length() > MAX_STRING || !wellFormed(s)) {
                return false;
            }
            b.u8(V_STRING);
            b.str(s);
        } else if (c == Boolean.class) {
            b.u8(V_BOOLEAN);
            b.u8(((Boolean) v) ? 1 : 0);
        } else if (c == Long.class) {
            b.u8(V_LONG);
            b.i64((Long) v);
        } else if (c == Double.class) {
            b.u8(V_DOUBLE);
            b.i64(Double.doubleToRawLongBits((Double) v));
        } else if (c == Float.class) {
            b.u8(V_FLOAT);
            b.i32(Float.floatToRawIntBits((Float) v));
        } else if (c == Character.class) {
            b.u8(V_CHAR);
            b.u16((Character) v);
        } else if (c == Byte.class) {
            b.u8(V_BYTE);
            b.u8((Byte) v);
        } else if (c == Short.class) {
            b.u8(V_SHORT);
            b.u16((Short) v);
        } else if (v instanceof Enum<?> e) {
            b.u8(V_ENUM);
            b.str(e.getDeclaringClass().getName());
            b.str(e.name());
        } else {
            return false;
        }
        return true;
    }
}
