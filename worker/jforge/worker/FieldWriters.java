package jforge.worker;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;

/**
 * Which public methods of a class write one of its fields (directly or through private
 * helpers of the same class), read from the class files with the JDK alone. Why: an object
 * built with a no-argument constructor and used before the public setter that initializes
 * it (TransformIterator before setIterator) throws a NullPointerException on its own field;
 * that is a state precondition the class documents, like an IllegalStateException, and
 * Blame sets such a sequence aside ("state-not-initialized") only when the class offers a
 * public constructor that sets the field and a public method that sets it later, and the
 * sequence took neither. Deciding it from the bytecode
 * (PUTFIELD of that field) and not from method names keeps the rule general: setIterator,
 * open(), init() alike.
 */
final class FieldWriters {
    /** Class files larger than this are not read (the rule then does not apply). */
    private static final int MAX_CLASS_BYTES = 4 << 20;

    /** A method of a class file: access, the fields it writes, the own methods it calls. */
    private static final class Meth {
        int access;
        String key;
        final HashSet<String> writes = new HashSet<>();
        final HashSet<String> calls = new HashSet<>();
    }

    /** Class name -> its methods (empty when the class file cannot be read). */
    private final HashMap<String, ArrayList<Meth>> cache = new HashMap<>();

    /**
     * The methods (name + descriptor) callable on an instance of {@code runtime} whose code
     * writes field f: public, not static, not constructors, declared between runtime and
     * f's declaring class. A public non-final field is its own writer ("=" + name).
     */
    HashSet<String> writers(Class<?> runtime, Field f) {
        HashSet<String> r = new HashSet<>();
        int fm = f.getModifiers();
        if (Modifier.isPublic(fm) && !Modifier.isFinal(fm)) {
            r.add("=" + f.getName());
        }
        for (Class<?> c = runtime; c != null; c = c.getSuperclass()) {
            for (Meth m : closure(c, f.getName())) {
                if (Modifier.isPublic(m.access) && !Modifier.isStatic(m.access) && !m.key.startsWith("<")) {
                    r.add(m.key);
                }
            }
            if (c == f.getDeclaringClass()) {
                break;
            }
        }
        return r;
    }

    /**
     * Does a public constructor of runtime (or of a superclass up to f's declaring class)
     * write field f, directly or through methods of its class?
     */
    boolean constructorWrites(Class<?> runtime, Field f) {
        for (Class<?> c = runtime; c != null; c = c.getSuperclass()) {
            for (Meth m : closure(c, f.getName())) {
                if (Modifier.isPublic(m.access) && m.key.startsWith("<init>")) {
                    return true;
                }
            }
            if (c == f.getDeclaringClass()) {
                break;
            }
        }
        return false;
    }

    /** The methods of c that write field name, directly or by calling one that does. */
    private ArrayList<Meth> closure(Class<?> c, String name) {
        ArrayList<Meth> ms = methods(c);
        HashSet<String> writing = new HashSet<>();
        for (Meth m : ms) {
            if (m.writes.contains(name)) {
                writing.add(m.key);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Meth m : ms) {
                if (writing.contains(m.key)) {
                    continue;
                }
                for (String k : m.calls) {
                    if (writing.contains(k)) {
                        writing.add(m.key);
                        changed = true;
                        break;
                    }
                }
            }
        }
        ArrayList<Meth> r = new ArrayList<>();
        for (Meth m : ms) {
            if (writing.contains(m.key)) {
                r.add(m);
            }
        }
        return r;
    }

    private ArrayList<Meth> methods(Class<?> c) {
        ArrayList<Meth> ms = cache.get(c.getName());
        if (ms == null) {
            ms = new ArrayList<>();
            String res = c.getName().replace('.', '/') + ".class";
            ClassLoader l = c.getClassLoader();
            try (InputStream in = l == null ? ClassLoader.getSystemResourceAsStream(res) : l.getResourceAsStream(res)) {
                if (in != null) {
                    byte[] b = in.readNBytes(MAX_CLASS_BYTES);
                    parse(new DataInputStream(new java.io.ByteArrayInputStream(b)), ms);
                }
            } catch (Throwable t) {
                Fatal.check(t);
                ms.clear();
            }
            cache.put(c.getName(), ms);
        }
        return ms;
    }

    /** The key of a method: name + JVM descriptor. */
    static String key(Method m) {
        StringBuilder sb = new StringBuilder(m.getName()).append('(');
        for (Class<?> p : m.getParameterTypes()) {
            sb.append(descriptor(p));
        }
        return sb.append(')').append(descriptor(m.getReturnType())).toString();
    }

    private static String descriptor(Class<?> c) {
        if (c.isArray()) {
            return c.getName().replace('.', '/');
        }
        if (c.isPrimitive()) {
            return switch (c.getName()) {
                case "void" -> "V";
                case "boolean" -> "Z";
                case "byte" -> "B";
                case "char" -> "C";
                case "short" -> "S";
                case "int" -> "I";
                case "long" -> "J";
                case "float" -> "F";
                default -> "D";
            };
        }
        return "L" + c.getName().replace('.', '/') + ";";
    }

    /** The constant pool: UTF-8 strings, and the two indexes of refs and name-and-types. */
    private static final class Pool {
        String[] utf;
        int[] a;
        int[] b;
        byte[] tag;

        String name(int ref) {
            return utf[a[b[ref]]];
        }

        String desc(int ref) {
            return utf[b[b[ref]]];
        }

        String owner(int ref) {
            return utf[a[a[ref]]];
        }
    }

    private static void parse(DataInputStream in, ArrayList<Meth> out) throws IOException {
        if (in.readInt() != 0xCAFEBABE) {
            return;
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        Pool p = pool(in);
        in.readUnsignedShort();
        String self = p.utf[p.a[in.readUnsignedShort()]];
        in.readUnsignedShort();
        in.skipNBytes(2L * in.readUnsignedShort());
        int nf = in.readUnsignedShort();
        for (int i = 0; i < nf; i++) {
            in.skipNBytes(6);
            skipAttributes(in);
        }
        int nm = in.readUnsignedShort();
        for (int i = 0; i < nm; i++) {
            Meth m = new Meth();
            m.access = in.readUnsignedShort();
            String name = p.utf[in.readUnsignedShort()];
            m.key = name + p.utf[in.readUnsignedShort()];
            int na = in.readUnsignedShort();
            for (int j = 0; j < na; j++) {
                String an = p.utf[in.readUnsignedShort()];
                int len = in.readInt();
                if (an.equals("Code")) {
                    in.skipNBytes(4);
                    byte[] code = new byte[in.readInt()];
                    in.readFully(code);
                    scan(code, p, self, m);
                    in.skipNBytes(len - 8 - code.length);
                } else {
                    in.skipNBytes(len);
                }
            }
            out.add(m);
        }
    }

    private static Pool pool(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        Pool p = new Pool();
        p.utf = new String[n];
        p.a = new int[n];
        p.b = new int[n];
        p.tag = new byte[n];
        for (int i = 1; i < n; i++) {
            int t = in.readUnsignedByte();
            p.tag[i] = (byte) t;
            switch (t) {
                case 1 -> p.utf[i] = in.readUTF();
                case 3, 4 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++;
                }
                case 7, 8, 16, 19, 20 -> p.a[i] = in.readUnsignedShort();
                case 9, 10, 11, 12, 17, 18 -> {
                    p.a[i] = in.readUnsignedShort();
                    p.b[i] = in.readUnsignedShort();
                }
                case 15 -> {
                    in.readUnsignedByte();
                    p.a[i] = in.readUnsignedShort();
                }
                default -> throw new IOException("bad constant pool tag " + t);
            }
        }
        return p;
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int na = in.readUnsignedShort();
        for (int j = 0; j < na; j++) {
            in.skipNBytes(2);
            in.skipNBytes(in.readInt() & 0xFFFFFFFFL);
        }
    }

    /** Walks the instructions of code: PUTFIELDs of self's fields, calls of self's methods. */
    private static void scan(byte[] code, Pool p, String self, Meth m) {
        int pc = 0;
        while (pc < code.length) {
            int op = code[pc] & 0xFF;
            if (op == 0xB5 || (op >= 0xB6 && op <= 0xB8)) {
                int ref = ((code[pc + 1] & 0xFF) << 8) | (code[pc + 2] & 0xFF);
                if (p.owner(ref).equals(self)) {
                    if (op == 0xB5) {
                        m.writes.add(p.name(ref));
                    } else {
                        m.calls.add(p.name(ref) + p.desc(ref));
                    }
                }
            }
            pc += length(code, pc, op);
        }
    }

    /** The length of the instruction at pc (opcode op). */
    private static int length(byte[] code, int pc, int op) {
        if (op == 0xAA || op == 0xAB) {
            int q = (pc + 4) & ~3;
            if (op == 0xAA) {
                int lo = readInt(code, q + 4);
                int hi = readInt(code, q + 8);
                return q - pc + 12 + 4 * (hi - lo + 1);
            }
            return q - pc + 8 + 8 * readInt(code, q + 4);
        }
        if (op == 0xC4) {
            return (code[pc + 1] & 0xFF) == 0x84 ? 6 : 4;
        }
        if (op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3A)
                || op == 0xA9 || op == 0xBC) {
            return 2;
        }
        if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 || (op >= 0x99 && op <= 0xA8)
                || (op >= 0xB2 && op <= 0xB8) || op == 0xBB || op == 0xBD || op == 0xC0 || op == 0xC1
                || op == 0xC6 || op == 0xC7) {
            return 3;
        }
        if (op == 0xC5) {
            return 4;
        }
        if (op == 0xB9 || op == 0xBA || op == 0xC8 || op == 0xC9) {
            return 5;
        }
        return 1;
    }

    private static int readInt(byte[] b, int i) {
        return ((b[i] & 0xFF) << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
    }
}
