package rerun;

/**
 * Two defects, each shown by many inputs: width(n) throws a NullPointerException (with no
 * null input) for every n above 10, and cut(s) for every text longer than 3 characters. A
 * run's error-revealing test shows each with the inputs that run happened to try first, so a
 * re-run with another seed finds the same defects with other values.
 */
public class Widths {
    private String label;

    public Widths() {}

    public int width(int n) {
        if (n > 10) {
            return label.length() + n;
        }
        return n;
    }

    public String cut(String s) {
        if (s != null && s.length() > 3) {
            return label.substring(1) + s;
        }
        return s;
    }
}
