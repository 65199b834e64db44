package pkgview;

import java.util.AbstractList;

/** Package-private: tests cannot name it; jforge measures it with --package. */
final class EvenList extends AbstractList<Integer> {
    private final int n;

    EvenList(int n) {
        this.n = n;
    }

    @Override
    public Integer get(int i) {
        if (i < 0 || i >= n) {
            throw new IndexOutOfBoundsException("index " + i + " of " + n);
        }
        return 2 * i;
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof Integer)) {
            return false;
        }
        int v = (Integer) o;
        return v >= 0 && v % 2 == 0 && v / 2 < n;
    }
}
