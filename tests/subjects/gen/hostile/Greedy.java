package hostile;

import java.util.ArrayList;
import java.util.List;

/**
 * Errors a worker survives: one allocation sized by the argument (any n >= 5 asks for more
 * than a 128 MiB heap) and a recursion without bound; the other methods are ordinary.
 */
public class Greedy {
    private final List<Integer> items = new ArrayList<>();

    public Greedy() {}

    public void add(int x) { items.add(x); }

    public int size() { return items.size(); }

    public int table(int n) {
        long[] t = new long[n * 4_000_000];
        return t.length;
    }

    public int depth(int n) { return depth(n + 1) + 1; }
}
