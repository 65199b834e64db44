package jforge.worker;

import java.lang.reflect.Field;

/**
 * How the copier (Protos) and the canonical walk (Canon) read and write the fields of the
 * structures they go through. Why an interface: the fast way, sun.misc.Unsafe's memory-access
 * methods, is deprecated for removal (JEP 471: a warning from JDK 24, an exception later), and
 * the supported way, method handles, costs more (BENCHMARKS.md, "Field access"). One
 * implementation is chosen per worker JVM, on first use:
 *
 * <ul>
 *   <li>{@link UnsafeFieldAccess} when sun.misc.Unsafe is present and a probe read and write
 *       through it succeed;
 *   <li>{@link HandleFieldAccess} otherwise, or when {@code -Djforge.fieldAccess=handles} asks
 *       for it ({@code =unsafe} asks for Unsafe and falls back, with a warning on the worker's
 *       stderr, when it is not usable).
 * </ul>
 *
 * Both lay out the same classes and reach the same fields, so counts, forms and copies do not
 * depend on the choice. A field is named by a key the implementation hands out (Unsafe: its
 * offset; handles: an index into its table); field kinds are Z B C S I J F D for primitives and
 * L for references ({@link #kind}). Not thread-safe: the worker runs one request at a time.
 */
interface FieldAccess {
    /** The implementation of this worker JVM. */
    FieldAccess INSTANCE = Choice.of(System.getProperty("jforge.fieldAccess", ""));

    /** "unsafe" or "handles". */
    String name();

    /**
     * Whether the instance fields of c are read and written through keys. False for hidden
     * classes (lambdas) and records, whose fields no key reaches: the walk reads them through
     * their Field, the copier shares such objects.
     */
    boolean laysOut(Class<?> c);

    /** The key of instance field f; throws a RuntimeException when f cannot be reached. */
    long key(Field f);

    boolean getBoolean(Object o, long key);

    byte getByte(Object o, long key);

    char getChar(Object o, long key);

    short getShort(Object o, long key);

    int getInt(Object o, long key);

    long getLong(Object o, long key);

    float getFloat(Object o, long key);

    double getDouble(Object o, long key);

    Object getObject(Object o, long key);

    void putBoolean(Object o, long key, boolean v);

    void putByte(Object o, long key, byte v);

    void putChar(Object o, long key, char v);

    void putShort(Object o, long key, short v);

    void putInt(Object o, long key, int v);

    void putLong(Object o, long key, long v);

    void putFloat(Object o, long key, float v);

    void putDouble(Object o, long key, double v);

    void putObject(Object o, long key, Object v);

    /** A new instance of c whose constructors did not run (every field at its default). */
    Object allocate(Class<?> c) throws InstantiationException;

    /** The value of static reference field f. */
    Object getStatic(Field f) throws ReflectiveOperationException;

    /** The kind letter of a field of type t: Z B C S I J F D, or L for references. */
    static char kind(Class<?> t) {
        if (!t.isPrimitive()) {
            return 'L';
        }
        return t == boolean.class ? 'Z' : t == byte.class ? 'B' : t == char.class ? 'C'
                : t == short.class ? 'S' : t == int.class ? 'I' : t == long.class ? 'J'
                : t == float.class ? 'F' : 'D';
    }

    /** The choice of implementation, made once. */
    final class Choice {
        private Choice() {}

        static FieldAccess of(String asked) {
            switch (asked) {
                case "handles":
                    return new HandleFieldAccess();
                case "unsafe": {
                    FieldAccess u = UnsafeFieldAccess.usable();
                    if (u == null) {
                        Main.warn("-Djforge.fieldAccess=unsafe: sun.misc.Unsafe is not usable in this JVM;"
                                + " using method handles");
                        return new HandleFieldAccess();
                    }
                    return u;
                }
                default: {
                    if (!asked.isEmpty()) {
                        Main.warn("-Djforge.fieldAccess=" + asked + " is neither unsafe nor handles;"
                                + " choosing automatically");
                    }
                    FieldAccess u = UnsafeFieldAccess.usable();
                    return u != null ? u : new HandleFieldAccess();
                }
            }
        }
    }
}
