package quirks;

/**
 * equals is not reflexive once the total is negative, and each of the three constructors
 * builds such a value: one defect, reached three ways (one error test, not three).
 */
public class ThreeWays {
    private final int total;

    public ThreeWays() { this.total = -1; }
    public ThreeWays(int a) { this.total = a; }
    public ThreeWays(int a, int b) { this.total = a + b; }

    public int getTotal() { return total; }

    @Override public boolean equals(Object o) {
        return o instanceof ThreeWays && total >= 0 && ((ThreeWays) o).total == total;
    }

    @Override public int hashCode() { return total; }
}
