package suite;

/**
 * A row of small numbers with names: its results are arrays (of ints, Strings, enums, mixed
 * objects, doubles, chars), so regression tests must assert their contents to catch a change.
 */
public class Grid {
    /** What a cell holds. */
    public enum Cell { EMPTY, WALL }

    private final int[] row;
    private final String[] names;

    public Grid(int n) {
        if (n < 0 || n > 6) {
            throw new IllegalArgumentException("size must be 0..6: " + n);
        }
        row = new int[n];
        names = new String[n];
    }

    public void set(int i, int v) {
        row[i] = v;
    }

    public void name(int i, String s) {
        names[i] = s;
    }

    /** An observer (a getter returning an array). */
    public int[] getRow() {
        return row.clone();
    }

    public String[] getNames() {
        return names.clone();
    }

    public Cell[] cells() {
        Cell[] c = new Cell[row.length];
        for (int i = 0; i < row.length; i++) {
            c[i] = row[i] > 0 ? Cell.WALL : Cell.EMPTY;
        }
        return c;
    }

    public Object[] summary() {
        return new Object[] {row.length, names.length > 0 ? names[0] : null, Cell.WALL, 2.5};
    }

    public double[] halves() {
        double[] d = new double[row.length];
        for (int i = 0; i < row.length; i++) {
            d[i] = row[i] / 2.0;
        }
        return d;
    }

    public char[] code() {
        char[] c = new char[row.length];
        for (int i = 0; i < row.length; i++) {
            c[i] = (char) ('a' + Math.floorMod(row[i], 26));
        }
        return c;
    }

    /** Spells an identity hash ("java.lang.Object@1b6d3586"): never asserted. */
    public char[] tag() {
        return new Object().toString().toCharArray();
    }
}
