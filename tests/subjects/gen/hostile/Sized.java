package hostile;

import java.util.Arrays;

/**
 * An allocation sized by a method's argument, with a large constant in the class's constant
 * pool (as guava's MAX_POWER_OF_TWO, 2^30): copies(1 << 28) asks for 2 GiB, on every
 * receiver the run builds. Small counts work; only a run that learns to keep the argument
 * small avoids the OutOfMemoryErrors.
 */
public class Sized {
    private long[] items = new long[0];

    public Sized() {}

    public void add(long v) {
        items = Arrays.copyOf(items, items.length + 1);
        items[items.length - 1] = v;
    }

    public int size() { return items.length; }

    /** n copies of the items' sum. */
    public long[] copies(int n) {
        long[] a = new long[n];
        Arrays.fill(a, Arrays.stream(items).sum());
        return a;
    }

    public static int huge() { return 1 << 28; }
}
