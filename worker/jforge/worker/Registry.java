package jforge.worker;

import java.io.IOException;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static jforge.worker.Proto.OP_CTOR;
import static jforge.worker.Proto.OP_FSET;
import static jforge.worker.Proto.OP_METHOD;
import static jforge.worker.Proto.OP_SFGET;
import static jforge.worker.Proto.OP_SFSET;
import static jforge.worker.Proto.OP_SMETHOD;
import static jforge.worker.Proto.REGISTERED;

/**
 * The operation registry. Why: a sequence should travel as integers, so each operation (kind,
 * class, name, descriptor) is resolved by reflection once, when jforge registers it (REGISTER),
 * and EXEC requests name it by id. An operation that does not resolve is reported back with
 * the reason and stays null here: a sequence using it is malformed, not a crash. Also the type
 * strings of EXEC requests (descriptors sent once per worker) and the classes they name.
 */
final class Registry {
    /** A resolved operation. */
    static final class Op {
        int kind;
        Constructor<?> ctor;
        Method method;
        Field field;
        int nparams;
        boolean voidRet;
        boolean primRet;
    }

    private final ClassLoader loader;
    private Op[] ops = new Op[256];
    private int nops;
    private final ArrayList<String> types = new ArrayList<>();
    private final ArrayList<Class<?>> typeClasses = new ArrayList<>();

    Registry(ClassLoader loader) {
        this.loader = loader;
    }

    /** Operation id, or null when it is not registered or did not resolve. */
    Op op(int id) {
        return id >= 0 && id < nops ? ops[id] : null;
    }

    /** REGISTER: resolves the request's operations and replies which ones failed. */
    void register(Frames f) throws IOException {
        Buf in = f.in;
        int first = in.ri32();
        int count = in.ri32();
        if (first != nops) {
            throw new IllegalStateException("register: expected first id " + nops + ", got " + first);
        }
        Buf out = f.start(REGISTERED);
        int countPos = out.n;
        out.i32(0);
        int failures = 0;
        for (int i = 0; i < count; i++) {
            int kind = in.ru8();
            String cls = in.rstr();
            String name = in.rstr();
            String desc = in.rstr();
            Op op = null;
            String err = null;
            try {
                op = resolve(kind, cls, name, desc);
            } catch (Throwable t) {
                try {
                    Fatal.check(t);
                } catch (Fatal fatal) {
                    err = "out of memory or stack while loading";
                }
                if (err == null) {
                    err = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
                }
            }
            if (nops == ops.length) {
                ops = Arrays.copyOf(ops, nops * 2);
            }
            ops[nops++] = op;
            if (op == null) {
                failures++;
                out.i32(first + i);
                out.str(err);
            }
        }
        int save = out.n;
        out.n = countPos;
        out.i32(failures);
        out.n = save;
        f.send();
    }

    private Op resolve(int kind, String cls, String name, String desc) throws Exception {
        Class<?> c = Class.forName(cls, false, loader);
        if (Executor.QUIET_CONSOLE) {
            GlobalState.watchThreadLocals(c);
        }
        Op op = new Op();
        op.kind = kind;
        int[] pos = {0};
        if (kind == OP_CTOR || kind == OP_METHOD || kind == OP_SMETHOD) {
            if (desc.isEmpty() || desc.charAt(0) != '(') {
                throw new IllegalArgumentException("bad method descriptor " + desc);
            }
            pos[0] = 1;
            List<Class<?>> ps = new ArrayList<>();
            while (pos[0] < desc.length() && desc.charAt(pos[0]) != ')') {
                ps.add(typeOf(desc, pos));
            }
            pos[0]++;
            Class<?>[] params = ps.toArray(new Class<?>[0]);
            Class<?> ret = typeOf(desc, pos);
            op.nparams = params.length;
            op.voidRet = ret == void.class;
            op.primRet = ret.isPrimitive() && ret != void.class;
            if (kind == OP_CTOR) {
                op.ctor = c.getDeclaredConstructor(params);
                op.voidRet = false;
                op.primRet = false;
                trySetAccessible(op.ctor);
            } else {
                Method m = findMethod(c, name, params, ret);
                if (m == null) {
                    throw new NoSuchMethodException(cls + "." + name + desc);
                }
                if (Modifier.isStatic(m.getModifiers()) != (kind == OP_SMETHOD)) {
                    throw new IllegalArgumentException("static/instance mismatch for " + cls + "." + name);
                }
                op.method = m;
                trySetAccessible(m);
            }
        } else {
            Class<?> ft = typeOf(desc, pos);
            Field f = findField(c, name, ft);
            if (f == null) {
                throw new NoSuchFieldException(cls + "." + name + ":" + desc);
            }
            boolean st = kind == OP_SFGET || kind == OP_SFSET;
            if (Modifier.isStatic(f.getModifiers()) != st) {
                throw new IllegalArgumentException("static/instance mismatch for " + cls + "." + name);
            }
            op.field = f;
            op.nparams = (kind == OP_FSET || kind == OP_SFSET) ? 1 : 0;
            op.voidRet = kind == OP_FSET || kind == OP_SFSET;
            op.primRet = !op.voidRet && ft.isPrimitive();
            trySetAccessible(f);
        }
        return op;
    }

    private static void trySetAccessible(AccessibleObject o) {
        try {
            o.setAccessible(true);
        } catch (RuntimeException e) {
            // not opened to us: public members of exported packages still work
        }
    }

    private static Method findMethod(Class<?> c, String name, Class<?>[] ps, Class<?> ret) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Method m = declared(k, name, ps, ret);
            if (m != null) {
                return m;
            }
        }
        ArrayList<Class<?>> todo = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        Set<Class<?>> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Class<?> k = todo.remove(0);
            if (!seen.add(k)) {
                continue;
            }
            Method m = declared(k, name, ps, ret);
            if (m != null) {
                return m;
            }
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        return null;
    }

    private static Method declared(Class<?> k, String name, Class<?>[] ps, Class<?> ret) {
        for (Method m : k.getDeclaredMethods()) {
            if (m.getName().equals(name) && m.getReturnType() == ret
                    && Arrays.equals(m.getParameterTypes(), ps)) {
                return m;
            }
        }
        return null;
    }

    private static Field findField(Class<?> c, String name, Class<?> type) {
        ArrayList<Class<?>> todo = new ArrayList<>();
        todo.add(c);
        Set<Class<?>> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Class<?> k = todo.remove(0);
            if (!seen.add(k)) {
                continue;
            }
            for (Field f : k.getDeclaredFields()) {
                if (f.getName().equals(name) && f.getType() == type) {
                    return f;
                }
            }
            if (k.getSuperclass() != null) {
                todo.add(k.getSuperclass());
            }
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        return null;
    }

    /** The class of descriptor d at pos[0], advancing pos[0] past it. */
    Class<?> typeOf(String d, int[] pos) throws ClassNotFoundException {
        char ch = d.charAt(pos[0]);
        switch (ch) {
            case 'Z': pos[0]++; return boolean.class;
            case 'B': pos[0]++; return byte.class;
            case 'C': pos[0]++; return char.class;
            case 'S': pos[0]++; return short.class;
            case 'I': pos[0]++; return int.class;
            case 'J': pos[0]++; return long.class;
            case 'F': pos[0]++; return float.class;
            case 'D': pos[0]++; return double.class;
            case 'V': pos[0]++; return void.class;
            case 'L': {
                int semi = d.indexOf(';', pos[0]);
                if (semi < 0) {
                    throw new ClassNotFoundException("bad descriptor " + d);
                }
                String n = d.substring(pos[0] + 1, semi).replace('/', '.');
                pos[0] = semi + 1;
                return Class.forName(n, false, loader);
            }
            case '[': {
                pos[0]++;
                Class<?> e = typeOf(d, pos);
                return Array.newInstance(e, 0).getClass();
            }
            default:
                throw new ClassNotFoundException("bad descriptor " + d);
        }
    }

    /** EXEC: the type strings new in this request (the table grows for the worker's life). */
    void readTypes(Buf in) {
        int nNew = in.ri32();
        for (int i = 0; i < nNew; i++) {
            types.add(in.rstr());
            typeClasses.add(null);
        }
    }

    /** The class named by type string id (a descriptor). */
    Class<?> typeClass(int id) throws ClassNotFoundException {
        Class<?> c = typeClasses.get(id);
        if (c == null) {
            c = typeOf(types.get(id), new int[] {0});
            typeClasses.set(id, c);
        }
        return c;
    }
}
