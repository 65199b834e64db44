package suite;

/**
 * Console noise: a class whose methods print (one always, one only for a negative input) and
 * an exception class with the whole of Throwable's API inherited. A maintainer's `mvn test`
 * must not print, and the exception class must not get hundreds of tests of JDK code.
 */
public class Noisy {
    private int total;

    /** Prints, and does nothing else. */
    public void show() {
        System.out.println("total=" + total);
    }

    /** Adds; prints a warning (to System.err) only when the amount is negative. */
    public int add(int amount) {
        if (amount < 0) {
            System.err.println("warning: negative amount " + amount);
        }
        total += amount;
        return total;
    }

    /** Prints, then throws, when the total is over the limit (as a printer that fails half-way). */
    public void check(int limit) {
        if (total > limit) {
            System.out.println("over the limit: " + total);
            throw new IllegalStateException("over " + limit);
        }
    }

    public int total() {
        return total;
    }

    public Failure fail(String why) {
        return new Failure(why, total);
    }

    /** An exception class under test: its own API is code() and the message it builds. */
    public static class Failure extends RuntimeException {
        private final int code;

        public Failure(String why, int code) {
            super(why + " (code " + code + ")");
            this.code = code;
        }

        public int code() {
            return code;
        }
    }
}
