package quirks;

/** Members jforge cannot call: skipped, and counted per reason in one warning each. */
public class Skips {
    private static class Hidden {}

    public Skips() {}
    public <T> Skips(T seed) {}
    public <T> Skips(T a, T b) {}

    public int one() { return 1; }
    public Hidden hidden() { return new Hidden(); }
}
