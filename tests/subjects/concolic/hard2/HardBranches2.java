package hard2;

/**
 * Branches whose conditions lie outside what concolic once traced: int overflow equalities,
 * single bits of a long, a checksum over the elements of an array argument, characters of a
 * String argument; and one branch no input takes, behind arithmetic the solver must see
 * through. Each method returns which path it took, so that a test of each path asserts a
 * different value.
 */
public class HardBranches2 {
    /** Two positive ints whose sum wraps around to Integer.MIN_VALUE. */
    public static int overflowSum(int a, int b) {
        if (a > 0 && b > 0) {
            if (a + b == Integer.MIN_VALUE) {
                return 2;
            }
            return 1;
        }
        return 0;
    }

    /** A product that equals 7 only by wrapping around (3 * 1431655767 = 2^32 + 5, ...). */
    public static int overflowMul(int x) {
        if (x * 3 == 7) {
            return 1;
        }
        return 0;
    }

    /** Single bits of a long, an unsigned shift, a sign bit, a xor of halves, an arithmetic shift. */
    public static int bits(long v) {
        int r = 0;
        if ((v >>> 37 & 1L) == 1) {
            r |= 1;
        }
        if ((v & (1L << 63)) != 0) {
            r |= 2;
        }
        if ((v ^ (v >>> 32)) == 0xCAFEL) {
            r |= 4;
        }
        if ((v << 3 >> 61) == -2L) {
            r |= 8;
        }
        return r;
    }

    /** A checksum over the elements of an int[] argument must match. */
    public static int checksum(int[] data) {
        if (data == null) {
            return -2;
        }
        if (data.length != 4) {
            return -1;
        }
        int h = 7;
        for (int d : data) {
            h = h * 31 + d;
        }
        if (h == 0x5EED) {
            return 1;
        }
        return 0;
    }

    /** A byte[] packet: at least three bytes, a marker, a sum of the others. */
    public static int packet(byte[] p) {
        if (p.length < 3) {
            return -1;
        }
        int sum = 0;
        for (int i = 1; i < p.length; i++) {
            sum += p[i] & 0xFF;
        }
        if (p[0] == (byte) 0x7E && (sum & 0xFF) == 0x42) {
            return 1;
        }
        return 0;
    }

    /** Characters of a String argument: a length, a prefix, a char, an index, a suffix. */
    public static int word(String s) {
        if (s.length() == 5 && s.startsWith("ab")) {
            if (s.charAt(2) == 'q') {
                return 2;
            }
            return 1;
        }
        if (s.indexOf('z') == 3) {
            return 3;
        }
        if (s.endsWith("!?")) {
            return 4;
        }
        return 0;
    }

    /** The inner test is (y >>> 28) > 15: no input takes it, and the solver proves so. */
    public static int infeasible(int x, int y) {
        int m = (x & 0x3F) * 4 + (y >>> 28);
        if (m > 200) {
            if (m - (x & 0x3F) * 4 > 15) {
                return -1;
            }
            return 1;
        }
        return 0;
    }
}
