package pm;

import java.util.ArrayList;
import java.util.List;

/** Index ranges for jforge params: calls valid only for indices within the receiver's size. */
public class Ranges {
    private final List<String> items = new ArrayList<>();

    public void add(String s) {
        items.add(s);
    }

    public int size() {
        return items.size();
    }

    /** Valid for from >= 0, len >= 1, from + len <= size (the first plan, (0, 0), fails). */
    public String window(int from, int len) {
        if (from < 0 || len < 1 || from + len > items.size()) {
            throw new IndexOutOfBoundsException("window " + from + "+" + len + " of " + items.size());
        }
        return String.join("", items.subList(from, from + len));
    }

    /** Valid for size > hi > lo >= 0: only a permutation of a non-decreasing pair works. */
    public String between(int hi, int lo) {
        if (lo < 0 || hi >= items.size() || hi <= lo) {
            throw new IndexOutOfBoundsException("between " + hi + " and " + lo);
        }
        return items.get(lo) + items.get(hi);
    }
}
