package jforge.worker;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.Arrays;

/**
 * Field access through method handles, the supported way: a field is an index into a table
 * of a getter and a setter, unreflected from the Field once it was made accessible and
 * adapted to (Object) and (Object, value) so that every call is an exact invocation without
 * boxing. Why not VarHandles: a VarHandle on a final field is read-only, and the copier must
 * write final fields. Instances are allocated without running a constructor through
 * sun.reflect.ReflectionFactory (the serialization libraries' way; in jdk.unsupported but not
 * deprecated).
 *
 * <p>What it needs that Unsafe does not: the fields must be accessible to the worker, i.e.
 * their packages open to it (the worker JVM gets --add-opens for the JDK packages jforge
 * walks). A field it cannot reach leaves the walk as it always did; the copier then refuses
 * to copy that class (jforge.CopyFailed: jforge exhaustive re-executes sequences instead,
 * slower, same results). Reading a static field initializes its class, which Unsafe's read
 * does not: the copier reads statics of classes it meets and of their enclosing classes.
 */
final class HandleFieldAccess implements FieldAccess {
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private MethodHandle[] getters = new MethodHandle[256];
    private MethodHandle[] setters = new MethodHandle[256];
    private int n;

    @Override
    public String name() {
        return "handles";
    }

    @Override
    public boolean laysOut(Class<?> c) {
        // as UnsafeFieldAccess, so that both lay out the same classes
        return !c.isHidden() && !c.isRecord();
    }

    @Override
    public long key(Field f) {
        f.setAccessible(true);
        Class<?> t = f.getType().isPrimitive() ? f.getType() : Object.class;
        MethodHandle g;
        MethodHandle s;
        try {
            g = LOOKUP.unreflectGetter(f).asType(MethodType.methodType(t, Object.class));
            s = LOOKUP.unreflectSetter(f).asType(MethodType.methodType(void.class, Object.class, t));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach field " + f + ": " + e.getMessage(), e);
        }
        if (n == getters.length) {
            getters = Arrays.copyOf(getters, n * 2);
            setters = Arrays.copyOf(setters, n * 2);
        }
        getters[n] = g;
        setters[n] = s;
        return n++;
    }

    /** What a handle threw: errors (out of memory, stack overflow) and unchecked as they are. */
    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        if (t instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(t);
    }

    @Override
    public boolean getBoolean(Object o, long key) {
        try {
            return (boolean) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public byte getByte(Object o, long key) {
        try {
            return (byte) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public char getChar(Object o, long key) {
        try {
            return (char) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public short getShort(Object o, long key) {
        try {
            return (short) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int getInt(Object o, long key) {
        try {
            return (int) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public long getLong(Object o, long key) {
        try {
            return (long) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public float getFloat(Object o, long key) {
        try {
            return (float) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public double getDouble(Object o, long key) {
        try {
            return (double) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public Object getObject(Object o, long key) {
        try {
            return (Object) getters[(int) key].invokeExact(o);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putBoolean(Object o, long key, boolean v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putByte(Object o, long key, byte v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putChar(Object o, long key, char v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putShort(Object o, long key, short v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putInt(Object o, long key, int v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putLong(Object o, long key, long v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putFloat(Object o, long key, float v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putDouble(Object o, long key, double v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void putObject(Object o, long key, Object v) {
        try {
            setters[(int) key].invokeExact(o, v);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Per class, a constructor that allocates it and runs only Object's constructor. */
    private static final ClassValue<Constructor<?>> ALLOCATORS = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> c) {
            try {
                Constructor<?> k = sun.reflect.ReflectionFactory.getReflectionFactory()
                        .newConstructorForSerialization(c, Object.class.getDeclaredConstructor());
                if (k != null) {
                    k.setAccessible(true);
                }
                return k;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }
    };

    @Override
    public Object allocate(Class<?> c) throws InstantiationException {
        Constructor<?> k = ALLOCATORS.get(c);
        if (k == null) {
            throw new InstantiationException("no allocator for " + c.getName());
        }
        try {
            return k.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            InstantiationException x = new InstantiationException("cannot allocate " + c.getName());
            x.initCause(e);
            throw x;
        }
    }

    @Override
    public Object getStatic(Field f) throws ReflectiveOperationException {
        f.setAccessible(true);
        return f.get(null);
    }
}
