package jforge.worker;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;

import static jforge.worker.Proto.TRACE_SECTION;

/**
 * The worker's side of concolic tracing (jforge concolic): with -Djforge.sym the classes under
 * test were rewritten in trace mode, and every call of each sequence run in GENERATE mode is
 * traced into one trace (begin, then arm and pause around each call, stop): its int-like and
 * (non-null) String arguments given by a literal statement k become the symbolic variable p<k>
 * of jforge.rt.Sym (an array of primitives given by array statement k: its length p<k> and
 * its literal elements), so that a value an earlier call stored in a field or array keeps its
 * shadow for the later calls, while the worker's contract checks add nothing to the path
 * condition. Why method handles: Sym is on the class path only in trace mode. Without
 * -Djforge.sym nothing here runs and RESULT frames are unchanged.
 */
final class Tracing {
    static final boolean ON = System.getProperty("jforge.sym") != null;
    /** A trace longer than this is not sent (the path is then unknown, not wrong). */
    private static final int MAX_TRACE = 8 << 20;

    private final ClassLoader loader;
    private MethodHandle start;
    private MethodHandle arm;
    private MethodHandle pause;
    private MethodHandle drain;
    private MethodHandle key;
    private boolean broken;
    private boolean started;
    private String trace;

    Tracing(ClassLoader loader) {
        this.loader = loader;
    }

    private boolean ready() {
        if (broken) {
            return false;
        }
        if (arm == null) {
            try {
                Class<?> c = Class.forName("jforge.rt.Sym", true, loader);
                MethodHandles.Lookup l = MethodHandles.lookup();
                start = l.findStatic(c, "start", MethodType.methodType(void.class));
                arm = l.findStatic(c, "arm", MethodType.methodType(void.class, int.class,
                        String[].class, long[].class, Object[].class, int[].class, int[][].class,
                        boolean.class, int.class));
                pause = l.findStatic(c, "pause", MethodType.methodType(void.class));
                drain = l.findStatic(c, "drain", MethodType.methodType(String.class));
                key = l.findStatic(c, "key", MethodType.methodType(int.class, String.class));
            } catch (Throwable t) {
                broken = true;
                return false;
            }
        }
        return true;
    }

    /** Starts the trace of a sequence (GENERATE mode only). */
    void begin() {
        trace = null;
        started = false;
        if (!ON || !ready()) {
            return;
        }
        try {
            start.invokeExact();
            started = true;
        } catch (Throwable t) {
            broken = true;
        }
    }

    /** Whether the sequence running is traced. */
    boolean on() {
        return started;
    }

    /**
     * Arms the trace for the call of {@code m} by statement {@code at} with {@code args};
     * {@code from[i]}: the statement that gave argument i when it is a literal or an array
     * statement, else -1; {@code elems[i]}: for an array statement, the statements of its
     * elements (-1 for one that is not a literal), else null. An array of primitives given by
     * an array statement is symbolic: its length and its literal elements.
     */
    void arm(Executable m, Object[] args, int[] from, int[][] elems, int at) {
        if (!started) {
            return;
        }
        Class<?>[] ps = m.getParameterTypes();
        String[] kinds = new String[ps.length];
        long[] values = new long[ps.length];
        for (int i = 0; i < ps.length && i < args.length; i++) {
            Object a = args[i];
            Class<?> p = ps[i];
            if (p == int.class || p == short.class || p == byte.class || p == long.class) {
                kinds[i] = p == int.class ? "I" : p == short.class ? "S" : p == byte.class ? "B" : "J";
                values[i] = ((Number) a).longValue();
            } else if (p == char.class) {
                kinds[i] = "C";
                values[i] = (Character) a;
            } else if (p == boolean.class) {
                kinds[i] = "Z";
                values[i] = ((Boolean) a) ? 1 : 0;
            } else if (p == String.class && a != null) {
                kinds[i] = "T";
            } else if (p.isArray() && p.getComponentType().isPrimitive() && a != null
                    && elems[i] != null) {
                kinds[i] = "A";
            }
        }
        String name = m instanceof Constructor ? "<init>" : m.getName();
        String ret = m instanceof Method ? desc(((Method) m).getReturnType()) : "V";
        StringBuilder d = new StringBuilder("(");
        for (Class<?> p : ps) {
            d.append(desc(p));
        }
        d.append(')').append(ret);
        try {
            int k = (int) key.invokeExact(name + d);
            arm.invokeExact(k, kinds, values, args, from, elems,
                    !java.lang.reflect.Modifier.isStatic(m.getModifiers()) || m instanceof Constructor, at);
        } catch (Throwable t) {
            broken = true;
        }
    }

    /** After a traced call: nothing is recorded until the next one is armed. */
    void pause() {
        if (!started) {
            return;
        }
        try {
            pause.invokeExact();
        } catch (Throwable t) {
            broken = true;
        }
    }

    /** Ends the trace of the sequence. */
    void stop() {
        if (!started) {
            return;
        }
        started = false;
        try {
            String t = (String) drain.invokeExact();
            trace = t.length() > MAX_TRACE ? "X too-long " + t.length() + "\n" : t;
        } catch (Throwable t) {
            trace = null;
        }
    }

    /** TRACE_SECTION and the trace, when a call was traced. */
    void append(Buf out) {
        if (trace == null) {
            return;
        }
        out.u8(TRACE_SECTION);
        out.str(trace);
        trace = null;
    }

    static String desc(Class<?> c) {
        if (c.isArray()) {
            return c.getName().replace('.', '/');
        }
        if (c == int.class) return "I";
        if (c == long.class) return "J";
        if (c == short.class) return "S";
        if (c == byte.class) return "B";
        if (c == char.class) return "C";
        if (c == boolean.class) return "Z";
        if (c == float.class) return "F";
        if (c == double.class) return "D";
        if (c == void.class) return "V";
        return "L" + c.getName().replace('.', '/') + ";";
    }
}
