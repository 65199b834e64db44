package hostile;

/** One method that never returns among ordinary ones. */
public class Hangs {
    private int total;

    public Hangs() {}

    public void add(int x) { total += x; }

    public int total() { return total; }

    public int hang() {
        long x = 0;
        while (x >= 0) {
            x = (x + 1) & 0xffff;
        }
        return (int) x;
    }
}
