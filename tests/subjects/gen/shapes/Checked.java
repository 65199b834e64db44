package shapes;

/**
 * Three ways to throw: the class's own check with its own message, a JDK method's
 * exception (its message is the JDK's, which changes between releases), and the JVM's own
 * arithmetic error (thrown from this class's code, with the JVM's message).
 */
public class Checked {
    private Checked() {
    }

    /** Its own check: an IllegalArgumentException naming the value. */
    public static int positive(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("not positive: " + n);
        }
        return n;
    }

    /** A JDK method's NumberFormatException. */
    public static int parse(String s) {
        return Integer.parseInt(s);
    }

    /** The JVM's ArithmeticException for a zero divisor. */
    public static int share(int total, int parts) {
        return total / parts;
    }
}
