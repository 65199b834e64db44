package reach;

/** Public, with a protected constructor only: a test in this package calls it directly. */
public class Counter {
    private int count;

    protected Counter(int start) {
        count = start < 0 ? 0 : Math.min(start, 1000);
    }

    public int next() {
        return ++count;
    }

    /** Of package access: tests in this package only. */
    int peek() {
        return count;
    }

    /** Protected: tests in this package only. */
    protected boolean skip(int n) {
        if (n <= 0) {
            return false;
        }
        count += Math.min(n, 100);
        return true;
    }
}
