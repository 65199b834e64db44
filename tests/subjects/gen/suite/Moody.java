package suite;

/** toString throws in some states and hashCode in others: two error-revealing tests. */
public class Moody {
    private int n;

    public Moody() {}

    public void bump() { n++; }

    public int level() { return n; }

    @Override
    public String toString() {
        if (n == 2) throw new IllegalStateException("toString fails at level 2");
        return "Moody" + n;
    }

    @Override
    public int hashCode() {
        if (n == 1) throw new IllegalStateException("hashCode fails at level 1");
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Moody && ((Moody) o).n == n;
    }
}
