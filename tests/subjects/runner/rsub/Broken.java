package rsub;

/** Breaks the equals contract: not reflexive, and equal to null. */
public class Broken {
    @Override
    public boolean equals(Object o) {
        return o != this;
    }

    @Override
    public int hashCode() {
        return 7;
    }
}
