package jforge.rt;

import java.util.ArrayList;

/**
 * Shadow values for concolic tracing (jforge concolic). Classes instrumented in trace mode
 * call this class around every instruction: it mirrors the JVM operand stack and locals of
 * each frame with symbolic expressions over the parameters of the method under test (null
 * for a value that does not depend on them), replaces int/long arithmetic (computing the
 * same result, so the JVM semantics are Java's own) and records each branch whose condition
 * is symbolic as a line of the trace. The worker arms it before the last statement of a
 * sequence and takes the trace after (see jforge.worker.Executor).
 *
 * <p>Why a shadow stack kept by calls and not a symbolic interpreter: the concrete run stays
 * the JVM's; a shadow entry also keeps the concrete value it had when computed, and every
 * use checks it against the real operand, so a frame that got out of step (code reached
 * through uninstrumented callers) degrades to concrete values, never to a wrong formula.
 */
public final class Sym {
    private Sym() {}

    /**
     * A symbolic value: an operation on children, a parameter or a constant; or a lost one
     * ({@link #lost} set, no trace line): a value computed from symbolic ones by an operation
     * the trace does not model (a JDK call, floating point), which branches name in "U"
     * lines instead of silently deciding concretely.
     */
    static final class Node {
        final int id;
        final long val;
        /** A String node: the String it stands for (checked by identity). */
        final String str;
        /** The unsupported operation this value came from (a lost value), else null. */
        final String lost;

        Node(String line, long val) {
            this(line, val, null);
        }

        Node(String line, long val, String str) {
            this.id = nodes.size();
            this.val = str == null ? val : STRING_VAL;
            this.str = str;
            this.lost = null;
            nodes.add(id + " " + line);
        }

        private Node(long val, String lost) {
            this.id = -1;
            this.val = val;
            this.str = null;
            this.lost = lost;
        }
    }

    /** A value lost to the unsupported operation {@code op}. */
    private static Node lost(String op, long val) {
        return new Node(val, op);
    }

    /** The first lost operand among {@code a} and {@code b}, if any. */
    private static Node lostIn(Node a, Node b) {
        return a != null && a.lost != null ? a : b != null && b.lost != null ? b : null;
    }

    /** The int value of a String node: none a real int operand is likely to have. */
    private static final long STRING_VAL = 0x5EED_0F_5EED_0F5L;

    static final class Frame {
        final int key;
        final int entry;
        Node[] locals = new Node[16];
        Node[] stack = new Node[16];
        int sp;
        int awaitKey;
        int awaitSlots = -1;

        Frame(int key, int entry) {
            this.key = key;
            this.entry = entry;
        }

        void push(Node n) {
            if (sp == stack.length) {
                stack = java.util.Arrays.copyOf(stack, sp * 2);
            }
            stack[sp++] = n;
        }

        Node pop() {
            if (sp == 0) {
                return null;
            }
            Node n = stack[--sp];
            stack[sp] = null;
            return n;
        }

        Node local(int i) {
            return i < locals.length ? locals[i] : null;
        }

        void setLocal(int i, Node n) {
            if (i >= locals.length) {
                locals = java.util.Arrays.copyOf(locals, Math.max(i + 1, locals.length * 2));
            }
            locals[i] = n;
        }
    }

    private static final int MAX_NODES = 200_000;
    private static final int MAX_EVENTS = 10_000;
    private static volatile boolean on;
    private static Thread owner;
    private static final ArrayList<String> nodes = new ArrayList<>();
    private static final StringBuilder events = new StringBuilder();
    private static int nevents;
    private static final ArrayList<Frame> frames = new ArrayList<>();
    private static Node[] pending;
    private static int pendingKey;
    /** The traced call's arguments, until its method is entered (kept apart from
     * {@link #pending}: a static initializer it triggers makes calls of its own first). */
    private static Node[] armed;
    private static int armedKey;
    private static int desyncs;

    /** What a field or array element holds: its shadow and the statement that wrote it. */
    static final class Cell {
        final Node node;
        final int def;
        /** Read by a later statement than the one that wrote it. */
        boolean used;

        Cell(Node node, int def) {
            this.node = node;
            this.def = def;
        }
    }

    /** Field shadows by object (identity), then field id; array element shadows by index. */
    private static final java.util.IdentityHashMap<Object, java.util.HashMap<Integer, Cell>> heap =
            new java.util.IdentityHashMap<>();
    /** Symbolic lengths of the arrays given as arguments (by identity). */
    private static final java.util.IdentityHashMap<Object, Node> lengths =
            new java.util.IdentityHashMap<>();
    /** Static field shadows by field id. */
    private static final java.util.HashMap<Integer, Cell> statics = new java.util.HashMap<>();
    /**
     * Per statement: definitions it made (fields and elements it wrote) and how many of them
     * a later statement overwrote before any later statement read them (seed 002's check of
     * a sequence on its real trace: a call whose every definition is overwritten before use
     * does not bear on the method under test).
     */
    private static final java.util.TreeMap<Integer, int[]> defs = new java.util.TreeMap<>();
    /** The sequence statement whose call runs now. */
    private static int stmt;

    /**
     * Starts the trace of a sequence: nothing recorded, no shadows. The calls of the
     * sequence are then traced one by one ({@link #arm}, {@link #pause}) into one trace, so
     * that a value an earlier call stored in a field or array (the receiver's state) keeps
     * its shadow for the later calls (seed 002's sequences: push(x) then top()).
     */
    public static synchronized void start() {
        nodes.clear();
        events.setLength(0);
        nevents = 0;
        frames.clear();
        desyncs = 0;
        heap.clear();
        lengths.clear();
        statics.clear();
        defs.clear();
        pending = null;
        armed = null;
        on = false;
    }

    /**
     * Arms tracing for the next call of the method whose key ({@link #key}) is {@code key},
     * made by sequence statement {@code at}: its parameters of the kinds given (I, J, S, B,
     * C, Z; T a String, {@code refs[i]}; null for a concrete one) become the variables
     * p{vars[i]} (the statement that gave the argument, String ones too), {@code receiver}: an
     * instance method (local 0 is the receiver). {@code values}: their concrete values (char as
     * its code, boolean as 0/1), which every use of a shadow is checked against. Kind A: an
     * array of primitives made by statement {@code vars[i]} from the literal statements
     * {@code elems[i]}: its length becomes the variable p{vars[i]} (kind L) and each element
     * the variable of its literal, as the shadows of the array's cells.
     */
    public static synchronized void arm(int key, String[] kinds, long[] values, Object[] refs,
            int[] vars, int[][] elems, boolean receiver, int at) {
        frames.clear();
        ArrayList<Node> slots = new ArrayList<>();
        if (receiver) {
            slots.add(null);
        }
        for (int i = 0; i < kinds.length; i++) {
            String k = kinds[i];
            if (k == null || vars[i] < 0) {
                slots.add(null);
            } else if ("T".equals(k)) {
                slots.add(new Node("var T " + vars[i], 0, (String) refs[i]));
            } else if ("A".equals(k)) {
                armArray(refs[i], vars[i], elems == null ? null : elems[i], at);
                slots.add(null);
            } else {
                slots.add(new Node("var " + k + " " + vars[i], values[i]));
            }
            if ("J".equals(k) || "D".equals(k)) {
                slots.add(null);
            }
        }
        pending = null;
        armed = slots.toArray(new Node[0]);
        armedKey = key;
        stmt = at;
        owner = Thread.currentThread();
        on = true;
    }

    /**
     * An array argument: its length and its elements (those given by a literal statement)
     * become variables, once per array (a later call keeps the shadows earlier ones left).
     */
    private static void armArray(Object a, int var, int[] elems, int at) {
        if (a == null || lengths.containsKey(a) || !a.getClass().isArray()) {
            return;
        }
        int len = java.lang.reflect.Array.getLength(a);
        lengths.put(a, new Node("var L " + var, len));
        String kind = a instanceof int[] ? "I" : a instanceof long[] ? "J" : a instanceof byte[] ? "B"
                : a instanceof short[] ? "S" : a instanceof char[] ? "C" : a instanceof boolean[] ? "Z" : null;
        if (kind == null || elems == null) {
            return;
        }
        java.util.HashMap<Integer, Cell> cells = heap.computeIfAbsent(a, x -> new java.util.HashMap<>());
        for (int j = 0; j < len && j < elems.length; j++) {
            if (elems[j] < 0) {
                continue;
            }
            long v;
            if (a instanceof boolean[]) {
                v = ((boolean[]) a)[j] ? 1 : 0;
            } else if (a instanceof char[]) {
                v = ((char[]) a)[j];
            } else {
                v = ((Number) java.lang.reflect.Array.get(a, j)).longValue();
            }
            cells.put(j, new Cell(new Node("var " + kind + " " + elems[j], v), at));
        }
    }

    /** Stops recording after a call of the sequence; the shadows stay for the next one. */
    public static synchronized void pause() {
        on = false;
        frames.clear();
        pending = null;
        armed = null;
    }

    /** Stops tracing and returns the trace: node lines ("N id ..."), events, def-use pairs. */
    public static synchronized String drain() {
        on = false;
        owner = null;
        StringBuilder sb = new StringBuilder();
        for (String n : nodes) {
            sb.append("N ").append(n).append('\n');
        }
        sb.append(events);
        for (java.util.Map.Entry<Integer, int[]> d : defs.entrySet()) {
            sb.append("D ").append(d.getKey()).append(' ').append(d.getValue()[0]).append(' ')
                    .append(d.getValue()[1]).append('\n');
        }
        if (desyncs > 0) {
            sb.append("X desync ").append(desyncs).append('\n');
        }
        nodes.clear();
        events.setLength(0);
        frames.clear();
        heap.clear();
        lengths.clear();
        statics.clear();
        defs.clear();
        pending = null;
        armed = null;
        return sb.toString();
    }

    // ---- the heap: fields and array elements (seed 002's heap simulation, values symbolic)

    private static Cell read(java.util.HashMap<Integer, Cell> cells, int id) {
        Cell c = cells == null ? null : cells.get(id);
        if (c != null && c.def < stmt) {
            c.used = true;
        }
        return c;
    }

    private static void write(Object o, int id, Node n) {
        java.util.HashMap<Integer, Cell> cells = o == null ? statics : heap.computeIfAbsent(o,
                k -> new java.util.HashMap<>());
        Cell old = cells.put(id, new Cell(n, stmt));
        if (old == null || old.def != stmt) {
            defs.computeIfAbsent(stmt, k -> new int[2])[0]++;
        }
        if (old != null && old.def < stmt && !old.used) {
            defs.computeIfAbsent(old.def, k -> new int[2])[1]++;
        }
    }

    /** Before getfield of field {@code id} ({@code slots} 1 or 2) on {@code o}. */
    public static void getf(Object o, int id, int slots) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        f.pop();
        Cell c = read(o == null ? null : heap.get(o), id);
        f.push(c == null ? null : c.node);
        if (slots == 2) {
            f.push(null);
        }
    }

    /** Before putfield of field {@code id} ({@code slots} 1 or 2) on {@code o}. */
    public static void putf(Object o, int id, int slots) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node v = f.pop();
        if (slots == 2) {
            v = f.pop();
        }
        f.pop();
        if (o != null) {
            write(o, id, v);
        }
    }

    /** Before an array load: the index pinned (see {@link #aidx}), then the element's shadow. */
    public static void ald(Object array, int index, int off, int slots) {
        aidx(array, index, off);
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        f.pop();
        f.pop();
        Cell c = array == null ? null : read(heap.get(array), index);
        f.push(c == null ? null : c.node);
        if (slots == 2) {
            f.push(null);
        }
    }

    /** An array store, replaced by these: the index pinned as for loads, the element's shadow kept. */
    private static void stored(Object array, int index, int off, int slots) {
        Frame f;
        if (!active() || (f = top()) == null || array == null) {
            return;
        }
        Node v = f.pop();
        if (slots == 2) {
            v = f.pop();
        }
        Node n = f.sp > 0 ? checked(f.stack[f.sp - 1], index) : null;
        access(f, array, index, n, off);
        f.pop();
        f.pop();
        if (index >= 0 && index < java.lang.reflect.Array.getLength(array)) {
            write(array, index, v);
        }
    }

    public static void ias(int[] a, int i, int v, int off) {
        stored(a, i, off, 1);
        a[i] = v;
    }

    public static void las(long[] a, int i, long v, int off) {
        stored(a, i, off, 2);
        a[i] = v;
    }

    public static void fas(float[] a, int i, float v, int off) {
        stored(a, i, off, 1);
        a[i] = v;
    }

    public static void das(double[] a, int i, double v, int off) {
        stored(a, i, off, 2);
        a[i] = v;
    }

    public static void aas(Object[] a, int i, Object v, int off) {
        stored(a, i, off, 1);
        a[i] = v;
    }

    /** bastore: a byte[] or a boolean[]. */
    public static void bas(Object a, int i, int v, int off) {
        stored(a, i, off, 1);
        if (a instanceof boolean[]) {
            ((boolean[]) a)[i] = (v & 1) != 0;
        } else {
            ((byte[]) a)[i] = (byte) v;
        }
    }

    public static void cas(char[] a, int i, int v, int off) {
        stored(a, i, off, 1);
        a[i] = (char) v;
    }

    public static void sas(short[] a, int i, int v, int off) {
        stored(a, i, off, 1);
        a[i] = (short) v;
    }

    /** The key of a method: a hash of its name and descriptor (the instrumenter's too). */
    public static int key(String nameAndDescriptor) {
        int h = 0x811c9dc5;
        for (int i = 0; i < nameAndDescriptor.length(); i++) {
            h ^= nameAndDescriptor.charAt(i);
            h *= 0x01000193;
        }
        return h;
    }

    private static boolean active() {
        return on && Thread.currentThread() == owner;
    }

    private static Frame top() {
        int n = frames.size();
        return n == 0 ? null : frames.get(n - 1);
    }

    /** The shadow of a concrete operand, null when it is concrete or out of step. */
    private static Node checked(Node n, long concrete) {
        if (n != null && n.lost == null && n.val != concrete) {
            desyncs++;
            return null;
        }
        return n;
    }

    private static Node konst(long v, int width) {
        return new Node("const " + width + " " + v, v);
    }

    private static Node node(String op, int width, Node a, Node b, long aVal, long bVal, long result) {
        if (nodes.size() > MAX_NODES) {
            return null;
        }
        Node l = lostIn(a, b);
        if (l != null) {
            return lost(l.lost, result);
        }
        Node x = a != null ? a : konst(aVal, opWidthA(op, width));
        Node y = b != null ? b : konst(bVal, opWidthB(op, width));
        return new Node(op + " " + width + " " + x.id + " " + y.id, result);
    }

    private static int opWidthA(String op, int width) {
        return op.equals("lcmp") ? 64 : width;
    }

    private static int opWidthB(String op, int width) {
        if (op.equals("lcmp")) {
            return 64;
        }
        return width == 64 && (op.equals("shl") || op.equals("ashr") || op.equals("lshr")) ? 32 : width;
    }

    private static void event(String line) {
        if (nevents++ < MAX_EVENTS) {
            events.append(line).append('\n');
        }
    }

    // ---- frames

    /** Method entry: a new frame; the armed or pending arguments become its locals. */
    public static void enter(int key, int argSlots, int entry) {
        if (!active()) {
            return;
        }
        Frame f = new Frame(key, entry);
        Node[] p = pending;
        // Another method entered first (a static initializer the call triggers, code reached
        // through an uninstrumented callee) leaves the pending arguments to their callee.
        if (p != null && pendingKey == key && p.length == argSlots) {
            pending = null;
        } else if (armed != null && armedKey == key && armed.length == argSlots) {
            p = armed;
            armed = null;
        } else {
            p = null;
        }
        if (p != null) {
            for (int i = 0; i < p.length; i++) {
                f.setLocal(i, p[i]);
            }
        }
        frames.add(f);
    }

    /** Before an invoke: its argument shadows become pending for the callee. */
    public static void call(int key, int packed, String name) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        int pops = packed >>> 8;
        int pushes = packed & 0xff;
        Node[] args = new Node[pops];
        Node from = null;
        for (int i = pops - 1; i >= 0; i--) {
            args[i] = f.pop();
            if (args[i] != null && (from == null || args[i].lost != null)) {
                from = args[i];
            }
        }
        pending = args;
        pendingKey = key;
        // The result of a call with a symbolic argument is lost, unless an instrumented
        // callee hands its shadow back (ret); a lost argument's operation is the cause.
        for (int i = 0; i < pushes; i++) {
            f.push(i == 0 && from != null ? lost(from.lost != null ? from.lost : name, 0) : null);
        }
        f.awaitKey = key;
        f.awaitSlots = pushes;
    }

    /** Before a return: the frame ends; its result's shadow goes to the waiting caller. */
    public static void ret(int slots) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node[] r = new Node[slots];
        for (int i = slots - 1; i >= 0; i--) {
            r[i] = f.pop();
        }
        frames.remove(frames.size() - 1);
        Frame c = top();
        if (c != null && c.awaitSlots == slots && c.awaitKey == f.key && c.sp >= slots) {
            for (int i = 0; i < slots; i++) {
                c.stack[c.sp - slots + i] = r[i];
            }
        }
        if (c != null) {
            c.awaitSlots = -1;
        }
    }

    /** At an exception handler of the method {@code entry}: frames above it are gone. */
    public static void handler(int entry) {
        if (!active()) {
            return;
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (frames.get(i).entry == entry) {
                while (frames.size() > i + 1) {
                    frames.remove(frames.size() - 1);
                }
                Frame f = frames.get(i);
                while (f.sp > 0) {
                    f.pop();
                }
                f.push(null);
                f.awaitSlots = -1;
                return;
            }
        }
    }

    // ---- stack effects

    /**
     * Any instruction not modelled: pops and pushes concrete slots. {@code packed}: opcode
     * &lt;&lt; 16 (0 for an instruction whose result does not depend on its operands' values:
     * pop, instanceof, new, ...), pops &lt;&lt; 8, pushes. The result of a value instruction
     * (floating point, invokedynamic) on a symbolic operand is lost to it.
     */
    public static void fx(int packed) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        int op = packed >>> 16;
        Node from = null;
        for (int i = (packed >>> 8) & 0xff; i > 0; i--) {
            Node n = f.pop();
            if (n != null && (from == null || n.lost != null)) {
                from = n;
            }
        }
        String why = from == null || op == 0 ? null : from.lost != null ? from.lost : mnemonic(op);
        for (int i = packed & 0xff; i > 0; i--) {
            f.push(why != null && i == (packed & 0xff) ? lost(why, 0) : null);
        }
    }

    /** The name of a value instruction jforge does not model. */
    private static String mnemonic(int op) {
        switch (op) {
            case 0x86: return "i2f";
            case 0x87: return "i2d";
            case 0x89: return "l2f";
            case 0x8a: return "l2d";
            case 0xba: return "invokedynamic";
            default: return "opcode-0x" + Integer.toHexString(op);
        }
    }

    /** iload/fload/aload (1 slot); lload/dload with {@code two}. */
    public static void ld(int slot, int two) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        f.push(f.local(slot));
        if (two != 0) {
            f.push(f.local(slot + 1));
        }
    }

    /** istore/fstore/astore (1 slot); lstore/dstore with {@code two}. */
    public static void st(int slot, int two) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        if (two != 0) {
            f.setLocal(slot + 1, f.pop());
        }
        f.setLocal(slot, f.pop());
    }

    /** iinc. */
    public static void iinc(int concrete, int slot, int c) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node a = checked(f.local(slot), concrete);
        f.setLocal(slot, a == null ? null : node("bvadd", 32, a, null, concrete, c, concrete + c));
    }

    /** dup, dup_x1, dup_x2, dup2, dup2_x1, dup2_x2, swap (0x59..0x5f), on shadow slots. */
    public static void dup(int op) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        int n = op == 0x59 || op == 0x5a || op == 0x5b || op == 0x5f ? 1 : 2;
        int under = op == 0x5a || op == 0x5d ? 1 : op == 0x5b || op == 0x5e ? 2 : 0;
        if (op == 0x5f) {
            Node a = f.pop();
            Node b = f.pop();
            f.push(a);
            f.push(b);
            return;
        }
        Node[] top = new Node[n];
        for (int i = n - 1; i >= 0; i--) {
            top[i] = f.pop();
        }
        Node[] mid = new Node[under];
        for (int i = under - 1; i >= 0; i--) {
            mid[i] = f.pop();
        }
        for (Node x : top) {
            f.push(x);
        }
        for (Node x : mid) {
            f.push(x);
        }
        for (Node x : top) {
            f.push(x);
        }
    }

    // ---- arithmetic (replacing the instruction: same result)

    /** iadd..iushr, iand, ior, ixor by opcode. */
    public static int i2(int a, int b, int op) {
        int r = iop(a, b, op & 0xff);
        if (active()) {
            Frame f = top();
            if (f != null) {
                Node nb = checked(f.pop(), b);
                Node na = checked(f.pop(), a);
                f.push(na == null && nb == null ? null : node(name(op & 0xff), 32, na, nb, a, b, r));
            }
        }
        return r;
    }

    private static int iop(int a, int b, int op) {
        switch (op) {
            case 0x60: return a + b;
            case 0x64: return a - b;
            case 0x68: return a * b;
            case 0x6c: return a / b;
            case 0x70: return a % b;
            case 0x78: return a << b;
            case 0x7a: return a >> b;
            case 0x7c: return a >>> b;
            case 0x7e: return a & b;
            case 0x80: return a | b;
            case 0x82: return a ^ b;
            default: throw new IllegalStateException("jforge.rt.Sym: opcode " + op);
        }
    }

    private static String name(int op) {
        switch (op) {
            case 0x60: case 0x61: return "bvadd";
            case 0x64: case 0x65: return "bvsub";
            case 0x68: case 0x69: return "bvmul";
            case 0x6c: case 0x6d: return "bvsdiv";
            case 0x70: case 0x71: return "bvsrem";
            case 0x78: case 0x79: return "shl";
            case 0x7a: case 0x7b: return "ashr";
            case 0x7c: case 0x7d: return "lshr";
            case 0x7e: case 0x7f: return "bvand";
            case 0x80: case 0x81: return "bvor";
            default: return "bvxor";
        }
    }

    /** Division and remainder: the divisor's zero test is a branch (site = method entry probe + offset). */
    public static int idiv(int a, int b, int packed) {
        divisor(b, packed, 32);
        return i2(a, b, packed);
    }

    public static long ldiv(long a, long b, int packed) {
        divisor(b, packed, 64);
        return l2(a, b, packed);
    }

    private static void divisor(long b, int packed, int width) {
        Frame f;
        if (!active() || (f = top()) == null || f.sp < (width == 64 ? 2 : 1)) {
            return;
        }
        Node nb = f.stack[f.sp - 1];
        if (nb != null && nb.lost == null && nb.val == b) {
            Node z = konst(0, width);
            event("B d" + f.entry + "." + (packed >>> 8) + " " + (b == 0 ? 1 : 0) + " eq " + nb.id + " " + z.id);
        }
    }

    /** ineg, i2b, i2c, i2s. */
    public static int i1(int a, int op) {
        int r;
        String n;
        switch (op & 0xff) {
            case 0x74: r = -a; n = "bvneg"; break;
            case 0x91: r = (byte) a; n = "i2b"; break;
            case 0x92: r = (char) a; n = "i2c"; break;
            default: r = (short) a; n = "i2s"; break;
        }
        unary(a, r, n, 32, 1);
        return r;
    }

    private static void unary(long a, long r, String n, int width, int slots) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node na = f.pop();
        if (slots == 2) {
            na = f.pop();
        }
        na = checked(na, a);
        Node out = na == null || nodes.size() > MAX_NODES ? null
                : na.lost != null ? lost(na.lost, r) : new Node(n + " " + width + " " + na.id, r);
        f.push(out);
        if (width == 64) {
            f.push(null);
        }
    }

    public static long i2l(int a) {
        long r = a;
        unary(a, r, "i2l", 64, 1);
        return r;
    }

    public static int l2i(long a) {
        int r = (int) a;
        unary(a, r, "l2i", 32, 2);
        return r;
    }

    public static long l1(long a, int op) {
        long r = -a;
        unary(a, r, "bvneg", 64, 2);
        return r;
    }

    /** ladd..lxor but shifts, by opcode. */
    public static long l2(long a, long b, int op) {
        long r;
        switch (op & 0xff) {
            case 0x61: r = a + b; break;
            case 0x65: r = a - b; break;
            case 0x69: r = a * b; break;
            case 0x6d: r = a / b; break;
            case 0x71: r = a % b; break;
            case 0x7f: r = a & b; break;
            case 0x81: r = a | b; break;
            default: r = a ^ b; break;
        }
        binary2(a, b, r, name(op & 0xff), 2, 2, 64);
        return r;
    }

    /** lshl, lshr, lushr. */
    public static long lsh(long a, int b, int op) {
        long r = (op & 0xff) == 0x79 ? a << b : (op & 0xff) == 0x7b ? a >> b : a >>> b;
        binary2(a, b, r, name(op & 0xff), 2, 1, 64);
        return r;
    }

    public static int lcmp(long a, long b) {
        int r = Long.compare(a, b);
        binary2(a, b, r, "lcmp", 2, 2, 32);
        return r;
    }

    private static void binary2(long a, long b, long r, String n, int aSlots, int bSlots, int width) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node nb = bSlots == 2 ? popWide(f) : f.pop();
        Node na = aSlots == 2 ? popWide(f) : f.pop();
        nb = checked(nb, b);
        na = checked(na, a);
        f.push(na == null && nb == null ? null : node(n, width, na, nb, a, b, r));
        if (width == 64) {
            f.push(null);
        }
    }

    private static Node popWide(Frame f) {
        f.pop();
        return f.pop();
    }

    // ---- branches

    private static final String[] CMP = {"eq", "ne", "lt", "ge", "gt", "le"};

    /** ifeq..ifle (op 0x99..0x9e) on {@code a}; site: probe id of the taken edge. */
    public static void if1(int a, int op, int site) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node na = checked(f.pop(), a);
        if (na != null && na.lost != null) {
            unsupported(site, cmp(op - 0x99, a, 0), na);
        } else if (na != null) {
            int c = op - 0x99;
            boolean taken = cmp(c, a, 0);
            event("B " + site + " " + (taken ? 1 : 0) + " " + CMP[c] + " " + na.id + " " + konst(0, 32).id);
        }
    }

    /** if_icmpeq..if_icmple (op 0x9f..0xa4). */
    public static void if2(int a, int b, int op, int site) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node nb = checked(f.pop(), b);
        Node na = checked(f.pop(), a);
        Node l = lostIn(na, nb);
        if (l != null) {
            unsupported(site, cmp(op - 0x9f, a, b), l);
        } else if (na != null || nb != null) {
            int c = op - 0x9f;
            boolean taken = cmp(c, a, b);
            Node x = na != null ? na : konst(a, 32);
            Node y = nb != null ? nb : konst(b, 32);
            event("B " + site + " " + (taken ? 1 : 0) + " " + CMP[c] + " " + x.id + " " + y.id);
        }
    }

    /**
     * A branch at {@code site} whose condition depends on the inputs through an operation the
     * trace does not model: "U site taken operation" (the branch is decided concretely, and
     * jforge names the operation when the branch stays uncovered).
     */
    private static void unsupported(Object site, boolean taken, Node l) {
        event("U " + site + " " + (taken ? 1 : 0) + " " + l.lost);
    }

    private static boolean cmp(int c, int a, int b) {
        switch (c) {
            case 0: return a == b;
            case 1: return a != b;
            case 2: return a < b;
            case 3: return a >= b;
            case 4: return a > b;
            default: return a <= b;
        }
    }

    /**
     * Before an array load: a symbolic index is pinned to the one the run used and the
     * array's length recorded (seed 002's heap simulation): jforge asks for the other indices
     * of a short array and for an index out of bounds. The load's own stack effect follows.
     */
    public static void aidx(Object array, int index, int off) {
        Frame f;
        if (!active() || (f = top()) == null || f.sp < 1 || array == null) {
            return;
        }
        access(f, array, index, checked(f.stack[f.sp - 1], index), off);
    }

    /**
     * An array access at {@code index} (shadow {@code n}): a symbolic index is pinned ("A"),
     * and on an array whose length is symbolic (an argument) the bounds test is a decision
     * (unsigned index &lt; length, site "b" + method entry + offset).
     */
    private static void access(Frame f, Object array, int index, Node n, int off) {
        if (n != null && n.lost != null) {
            return;
        }
        int len = java.lang.reflect.Array.getLength(array);
        Node ln = lengths.get(array);
        if (ln != null && nodes.size() <= MAX_NODES) {
            Node idx = n != null ? n : konst(index, 32);
            boolean in = index >= 0 && index < len;
            event("B b" + f.entry + "." + off + " " + (in ? 1 : 0) + " ult " + idx.id + " " + ln.id);
        }
        if (n != null) {
            event("A a" + f.entry + "." + off + " " + index + " " + n.id + " " + len);
        }
    }

    /** Before arraylength: the length's shadow, symbolic for an array given as an argument. */
    public static void alen(Object array) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        f.pop();
        f.push(array == null ? null : lengths.get(array));
    }

    /** tableswitch/lookupswitch on {@code key}; site: probe id of its first case or default. */
    public static void sw(int key, int site) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return;
        }
        Node n = checked(f.pop(), key);
        if (n != null && n.lost != null) {
            unsupported(site, true, n);
        } else if (n != null) {
            event("S " + site + " " + key + " " + n.id);
        }
    }

    // ---- Strings (replacing invokevirtual String.length/charAt/isEmpty/equals/startsWith,
    // endsWith/contains/indexOf)

    /** The shadow of a String operand: its node when it stands for this very String (or a lost one). */
    private static Node str(Node n, Object concrete) {
        if (n == null || n.lost != null) {
            return n;
        }
        if (n.str != concrete) {
            desyncs++;
            return null;
        }
        return n;
    }

    /** A String constant node (UTF-16 units in hex, so the line has no spaces). */
    private static Node strConst(String s) {
        StringBuilder h = new StringBuilder("str ");
        if (s.isEmpty()) {
            h.append('-');
        }
        for (int i = 0; i < s.length(); i++) {
            h.append(String.format("%04x", (int) s.charAt(i)));
        }
        return new Node(h.toString(), 0, s);
    }

    /** Pops a String operand's shadow (null: concrete). */
    private static Node popStr(Frame f, Object concrete) {
        return str(f.pop(), concrete);
    }

    /**
     * An int-valued result over String (or int) nodes, pushed: null when no operand is
     * symbolic, lost when one is; the concrete operands {@code sa}, {@code sb} (a String, or
     * an Integer for an int) become constants.
     */
    private static void pushResult(Frame f, String op, int r, Node a, Node b, Object sa, Object sb) {
        Node l = lostIn(a, b);
        if (l != null) {
            f.push(lost(l.lost, r));
            return;
        }
        if ((a == null && b == null) || nodes.size() > MAX_NODES) {
            f.push(null);
            return;
        }
        Node x = a != null ? a : constOf(sa);
        Node y = b != null ? b : sb == null ? null : constOf(sb);
        f.push(new Node(op + " 32 " + x.id + (y == null ? "" : " " + y.id), r));
    }

    private static Node constOf(Object v) {
        return v instanceof String ? strConst((String) v) : konst(((Number) v).longValue(), 32);
    }

    public static int slength(String s) {
        int r = s.length();
        Frame f;
        if (active() && (f = top()) != null) {
            pushResult(f, "slen", r, popStr(f, s), null, s, null);
        }
        return r;
    }

    public static boolean sempty(String s) {
        boolean r = s.isEmpty();
        Frame f;
        if (active() && (f = top()) != null) {
            pushResult(f, "sempty", r ? 1 : 0, popStr(f, s), null, s, null);
        }
        return r;
    }

    public static boolean sequals(String s, Object o) {
        boolean r = s.equals(o);
        Frame f;
        if (active() && (f = top()) != null) {
            Node b = o instanceof String ? popStr(f, o) : f.pop();
            Node a = popStr(f, s);
            if (o instanceof String) {
                pushResult(f, "seq", r ? 1 : 0, a, b, s, o);
            } else {
                Node l = lostIn(a, b);
                f.push(l != null ? lost(l.lost, r ? 1 : 0) : null);
            }
        }
        return r;
    }

    /** A String test of two Strings ({@code op}: spre, ssuf, scont), its result pushed. */
    private static void strTest(String op, boolean r, String s, String p) {
        Frame f;
        if (active() && (f = top()) != null) {
            Node b = popStr(f, p);
            Node a = popStr(f, s);
            pushResult(f, op, r ? 1 : 0, a, b, s, p);
        }
    }

    public static boolean sstarts(String s, String p) {
        boolean r = s.startsWith(p);
        strTest("spre", r, s, p);
        return r;
    }

    public static boolean sends(String s, String p) {
        boolean r = s.endsWith(p);
        strTest("ssuf", r, s, p);
        return r;
    }

    /** contains(CharSequence): modelled when the argument is a String. */
    public static boolean scontains(String s, CharSequence p) {
        boolean r = s.contains(p);
        Frame f;
        if (p instanceof String) {
            strTest("scont", r, s, (String) p);
        } else if (active() && (f = top()) != null) {
            Node b = f.pop();
            Node a = popStr(f, s);
            Node l = lostIn(a, b);
            f.push(l != null ? lost(l.lost, r ? 1 : 0) : a != null ? lost("String.contains", r ? 1 : 0) : null);
        }
        return r;
    }

    /** indexOf(String). */
    public static int sindexs(String s, String p) {
        int r = s.indexOf(p);
        Frame f;
        if (active() && (f = top()) != null) {
            Node b = popStr(f, p);
            Node a = popStr(f, s);
            pushResult(f, "sidxs", r, a, b, s, p);
        }
        return r;
    }

    /** indexOf(int): the first index of a char (a code point past 0xFFFF is not modelled). */
    public static int sindexc(String s, int ch) {
        int r = s.indexOf(ch);
        Frame f;
        if (active() && (f = top()) != null) {
            Node b = checked(f.pop(), ch);
            Node a = popStr(f, s);
            pushResult(f, "sidxc", r, a, b, s, ch);
        }
        return r;
    }

    /**
     * charAt: the bounds test is a decision (unsigned index &lt; length, site "c" + method
     * entry + offset), recorded before the call throws; the char is a node over the String
     * and the index.
     */
    public static char scharAt(String s, int i, int off) {
        Frame f;
        if (!active() || (f = top()) == null) {
            return s.charAt(i);
        }
        Node ni = checked(f.pop(), i);
        Node ns = popStr(f, s);
        Node l = lostIn(ni, ns);
        if (l != null) {
            char r = s.charAt(i);
            f.push(lost(l.lost, r));
            return r;
        }
        if ((ns != null || ni != null) && nodes.size() <= MAX_NODES) {
            Node str = ns != null ? ns : strConst(s);
            Node idx = ni != null ? ni : konst(i, 32);
            Node len = new Node("slen 32 " + str.id, s.length());
            boolean in = i >= 0 && i < s.length();
            event("B c" + f.entry + "." + off + " " + (in ? 1 : 0) + " ult " + idx.id + " " + len.id);
            char r = s.charAt(i);
            f.push(new Node("sat 32 " + str.id + " " + idx.id, r));
            return r;
        }
        char r = s.charAt(i);
        f.push(null);
        return r;
    }
}
