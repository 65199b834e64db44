package subj;

/** Comparison-logging subjects: int, long and char comparisons and switches. */
public class Compares {
    private final String tag;

    public Compares() {
        this(1);
    }

    /** A comparison before super() returns: frames with uninitializedThis around the log. */
    private Compares(int x) {
        this(x > 0 ? "pos" : x < 0 ? "neg" : "zero", x == -3 ? 0 : 1);
    }

    private Compares(String tag, int unused) {
        this.tag = tag;
    }

    public static int f(int x) {
        if (x == 4242) return 1;
        return 0;
    }

    public static int lng(long id) {
        if (id == 123456789012L) return 1;
        if (id < -5L) return 2;
        return 0;
    }

    public static int chr(char c) {
        if (c == 'q') return 1;
        return c > 'z' ? 2 : 0;
    }

    public static int range(int n) {
        if (n > 90000 && n < 90010) return 1;
        return 0;
    }

    public static int loop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += i;
        if (s == 777) return -1;
        return s;
    }

    public static String sw(int op) {
        switch (op) {
            case 777: return "a";
            case 778: return "b";
            case 100000: return "c";
            default: return "other";
        }
    }

    static int add4(int a, int b, int c, int d) {
        return a + b + c + d;
    }

    static long add3(long a, long b, int c) {
        return a + b + c;
    }

    /** Comparisons with other values already on the operand stack (max_stack grows). */
    public static int deep(int a, int b, int c, int d) {
        return add4(a, b, (d > a ? 1 : 0), (b == c ? 2 : 0));
    }

    public static long deepLong(long a, long b, int c) {
        return add3(a, b, a < b ? c : -c);
    }

    /** A comparison inside a try block whose handler is reached by the exception edge. */
    public static int guarded(int x) {
        int[] a = new int[1];
        try {
            if (x < 0) return a[x];
            return x;
        } catch (ArrayIndexOutOfBoundsException e) {
            return -1;
        }
    }

    public static String cmpInCtor(int x) {
        return new Compares(x).tag;
    }
}
