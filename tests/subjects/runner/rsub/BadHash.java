package rsub;

/** A well-behaved equals but a hashCode that throws. */
public class BadHash {
    final int v;

    public BadHash(int v) {
        this.v = v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BadHash b && b.v == v;
    }

    @Override
    public int hashCode() {
        throw new IllegalStateException("no hash");
    }
}
