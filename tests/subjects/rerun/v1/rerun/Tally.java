package rerun;

/** A running total (lean and stable suites: tests/it/lean_e2e.rs). Version 1. */
public class Tally {
    private int total;
    private int count;

    public Tally() {}

    public Tally(int start) {
        if (start < 0) {
            throw new IllegalArgumentException("negative start: " + start);
        }
        total = start;
    }

    public void add(int x) {
        if (x > 1000) {
            throw new IllegalArgumentException("too big: " + x);
        }
        total += x;
        count++;
    }

    public int total() {
        return total;
    }

    public int count() {
        return count;
    }

    /** Version 2 adds one. */
    public int scaled(int factor) {
        return total * factor;
    }

    public String label() {
        return count == 0 ? "empty" : "n=" + count;
    }

    public boolean isBig() {
        return total > 100;
    }
}
