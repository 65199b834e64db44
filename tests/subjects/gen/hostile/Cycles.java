package hostile;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Endless iterables among finite ones: each consumer hangs only when given the endless one
 * (as guava's Iterators.contains, Ordering.min, ... given a cycle()).
 */
public class Cycles {
    private Cycles() {}

    /** An iterable that never ends. */
    private static final class Forever implements Iterable<Integer> {
        private final int x;

        Forever(int x) { this.x = x; }

        @Override
        public Iterator<Integer> iterator() {
            return new Iterator<Integer>() {
                public boolean hasNext() { return true; }
                public Integer next() { return x; }
            };
        }
    }

    public static Iterable<Integer> forever(int x) { return new Forever(x); }

    public static List<Integer> upTo(int n) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < Math.min(n, 20); i++) {
            l.add(i);
        }
        return l;
    }

    public static long sum(Iterable<Integer> xs) {
        long s = 0;
        for (int v : xs) {
            s += v;
        }
        return s;
    }

    public static int max(Iterable<Integer> xs) {
        int m = Integer.MIN_VALUE;
        for (int v : xs) {
            m = Math.max(m, v);
        }
        return m;
    }

    public static int count(Iterable<Integer> xs) {
        int c = 0;
        for (Integer v : xs) {
            c++;
        }
        return c;
    }

    public static boolean containsNegative(Iterable<Integer> xs) {
        boolean found = false;
        for (int v : xs) {
            found |= v < 0;
        }
        return found;
    }
}
