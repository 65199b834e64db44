package quirks;

/** equals is not reflexive once the value is negative (a seeded bug jforge must find). */
public class BrokenEquals {
    private int value;

    public BrokenEquals(int value) { this.value = value; }

    public void set(int v) { value = v; }
    public int getValue() { return value; }

    @Override public boolean equals(Object o) {
        if (!(o instanceof BrokenEquals)) return false;
        BrokenEquals b = (BrokenEquals) o;
        return value >= 0 && b.value == value;
    }

    @Override public int hashCode() { return value; }
}
