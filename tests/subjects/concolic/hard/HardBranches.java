package hard;

/**
 * Branches random generation rarely takes: arithmetic equalities, a checksum, nested
 * ranges, a switch on a computed value, overflow, division, shifts and casts, a String
 * prefix. Each method
 * returns which path it took, so that a test of each path asserts a different value.
 */
public class HardBranches {
    /** A linear equality over two ints. */
    public static int equality(int a, int b) {
        if (a * 31 + b == 1_000_003) {
            return 1;
        }
        return 0;
    }

    /** Nested ranges on two values; one combination is infeasible (x > 100 && x < 50). */
    public static int ranges(int x, int y) {
        if (x > 100) {
            if (x < 200) {
                if (y == x * 2 - 7) {
                    return 3;
                }
                return 2;
            }
            if (x < 50) {
                return -1; // infeasible
            }
            return 1;
        }
        return 0;
    }

    /** A checksum over four bytes must match. */
    public static boolean checksum(byte b0, byte b1, byte b2, byte b3) {
        int h = 17;
        h = h * 31 + b0;
        h = h * 31 + b1;
        h = h * 31 + b2;
        h = h * 31 + b3;
        return (h ^ (h >>> 7)) == 0xf1ebc4;
    }

    /** A switch on a computed value. */
    public static String classify(int n) {
        switch ((n * 7 + 3) % 5) {
            case 0:
                return "zero";
            case 1:
                return "one";
            case 4:
                return "four";
            default:
                return "other";
        }
    }

    /** Overflow and shifts with Java's semantics (wrap-around, masked shift distance). */
    public static int overflow(int a, long l) {
        if (a + 1 < a) {
            return 1; // only Integer.MAX_VALUE
        }
        if ((l << 40) == 0x1234_0000_0000_0000L && (int) l != 0) {
            return 2;
        }
        if ((char) a == 'q' && a < 0) {
            return 3;
        }
        return 0;
    }

    /** Division: by zero throws, and a quotient test. */
    public static int divide(int a, int b) {
        int q = a / b;
        if (q == 7 && a % b == 3) {
            return 1;
        }
        return 0;
    }

    /** An instance method: its receiver comes from the constructor. */
    private int base = 5;

    public int offset(int x) {
        if (x - base == 42) {
            return 1;
        }
        return 0;
    }

    /** A helper call on the way: the callee's branches depend on the caller's inputs. */
    public static int viaHelper(int x, short s) {
        if (twice(x) == 20 + s && s > 3) {
            return 1;
        }
        return 0;
    }

    private static int twice(int v) {
        return v * 2;
    }

    /** An exception thrown and caught inside the code: the handler's branch is symbolic too. */
    public static int caught(int a, int b) {
        int r;
        try {
            r = check(a, b);
        } catch (IllegalArgumentException e) {
            if (a * 3 == 141) {
                return -5;
            }
            return -1;
        }
        if (r == 1000) {
            return 7;
        }
        return 0;
    }

    private static int check(int a, int b) {
        if (b - a == 13) {
            throw new IllegalArgumentException("b - a must not be 13");
        }
        return b * 10;
    }

    /** An array read at a symbolic index (pinned per index; out of bounds throws). */
    public static int lookup(int i, int j) {
        int[] t = {3, 1, 4, 1, 5, 9, 2, 6};
        if (t[i] == 9 && j == i + 100) {
            return 1;
        }
        return 0;
    }

    /** A String prefix, a length, a character, emptiness and equality (string theory). */
    public static int command(String s) {
        if (s.startsWith("run:") && s.length() == 7) {
            if (s.charAt(4) == 'x') {
                return 2;
            }
            return 1;
        }
        if (s.isEmpty()) {
            return -1;
        }
        if (s.equals("stop")) {
            return 3;
        }
        return 0;
    }
}
