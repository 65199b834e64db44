package jforge.worker;

import java.lang.reflect.Field;

/**
 * Field access through sun.misc.Unsafe: a field is its offset, a read or write is one memory
 * access with no access check and no boxing, and an instance is allocated without running a
 * constructor. The fastest way, and the default while the JDK allows it; deprecated for
 * removal (JEP 471), hence {@link #usable} and the fallback {@link HandleFieldAccess}.
 */
@SuppressWarnings({"deprecation", "removal"})
final class UnsafeFieldAccess implements FieldAccess {
    private static final sun.misc.Unsafe U = unsafe();

    /** The JVM's sun.misc.Unsafe, or null when this JVM does not hand it out. */
    static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    private UnsafeFieldAccess() {}

    /** A field to probe Unsafe with. */
    private static final class Probe {
        int x;
    }

    /**
     * Unsafe field access when this JVM has sun.misc.Unsafe and lets it read and write a field
     * (a JDK that denies its memory access throws instead); otherwise null.
     */
    static FieldAccess usable() {
        if (U == null) {
            return null;
        }
        try {
            long off = U.objectFieldOffset(Probe.class.getDeclaredField("x"));
            Probe p = new Probe();
            U.putInt(p, off, 42);
            return U.getInt(p, off) == 42 && p.x == 42 ? new UnsafeFieldAccess() : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    @Override
    public String name() {
        return "unsafe";
    }

    @Override
    public boolean laysOut(Class<?> c) {
        // Unsafe gives no offsets for the fields of hidden classes and records
        return !c.isHidden() && !c.isRecord();
    }

    @Override
    public long key(Field f) {
        return U.objectFieldOffset(f);
    }

    @Override
    public boolean getBoolean(Object o, long key) {
        return U.getBoolean(o, key);
    }

    @Override
    public byte getByte(Object o, long key) {
        return U.getByte(o, key);
    }

    @Override
    public char getChar(Object o, long key) {
        return U.getChar(o, key);
    }

    @Override
    public short getShort(Object o, long key) {
        return U.getShort(o, key);
    }

    @Override
    public int getInt(Object o, long key) {
        return U.getInt(o, key);
    }

    @Override
    public long getLong(Object o, long key) {
        return U.getLong(o, key);
    }

    @Override
    public float getFloat(Object o, long key) {
        return U.getFloat(o, key);
    }

    @Override
    public double getDouble(Object o, long key) {
        return U.getDouble(o, key);
    }

    @Override
    public Object getObject(Object o, long key) {
        return U.getObject(o, key);
    }

    @Override
    public void putBoolean(Object o, long key, boolean v) {
        U.putBoolean(o, key, v);
    }

    @Override
    public void putByte(Object o, long key, byte v) {
        U.putByte(o, key, v);
    }

    @Override
    public void putChar(Object o, long key, char v) {
        U.putChar(o, key, v);
    }

    @Override
    public void putShort(Object o, long key, short v) {
        U.putShort(o, key, v);
    }

    @Override
    public void putInt(Object o, long key, int v) {
        U.putInt(o, key, v);
    }

    @Override
    public void putLong(Object o, long key, long v) {
        U.putLong(o, key, v);
    }

    @Override
    public void putFloat(Object o, long key, float v) {
        U.putFloat(o, key, v);
    }

    @Override
    public void putDouble(Object o, long key, double v) {
        U.putDouble(o, key, v);
    }

    @Override
    public void putObject(Object o, long key, Object v) {
        U.putObject(o, key, v);
    }

    @Override
    public Object allocate(Class<?> c) throws InstantiationException {
        return U.allocateInstance(c);
    }

    @Override
    public Object getStatic(Field f) {
        // read where the class keeps its statics: no class initialization is triggered
        return U.getObject(U.staticFieldBase(f), U.staticFieldOffset(f));
    }
}
