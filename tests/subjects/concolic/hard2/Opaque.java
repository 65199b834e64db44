package hard2;

/**
 * Branches whose conditions depend on the inputs only through operations concolic does not
 * model (a JDK hash, floating point): no solver query can be made for them, random inputs
 * almost never take them, and the report must name the operation.
 */
public class Opaque {
    /** String.hashCode is a JDK call: its result is not traced. */
    public static int hash(String s) {
        if (s.hashCode() == 0x5EED5EED) {
            return 1;
        }
        return 0;
    }

    /** Floating point is not reasoned about (x = 24691 takes it). */
    public static int scaled(int x) {
        double d = x * 0.5;
        if (d == 12345.5) {
            return 1;
        }
        return 0;
    }

    /** Solved as usual: the class is not given up on because of the other two. */
    public static int plain(int x) {
        if (x * 5 == 1_000_005) {
            return 1;
        }
        return 0;
    }
}
