package blame;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * A sorted structure built with a comparator argument. With a comparator that calls every pair
 * equal its equals and hashCode disagree, as TreeSet documents: not a bug of the structure, no
 * error test.
 */
public class SortedBag {
    private final Comparator<String> order;
    private final TreeSet<String> items;

    public SortedBag(Comparator<String> order, String first) {
        this.order = order;
        items = new TreeSet<>(order);
        items.add(first);
    }

    /** A bag of the same order holding only s. */
    public SortedBag with(String s) {
        return new SortedBag(order, s);
    }

    /** A comparator that calls every pair equal. */
    public static Comparator<String> allEqual() {
        return (a, b) -> 0;
    }

    public static Comparator<String> natural() {
        return Comparator.naturalOrder();
    }

    public SortedBag add(String s) {
        items.add(s);
        return this;
    }

    public int size() {
        return items.size();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SortedBag b && items.equals(b.items);
    }

    @Override
    public int hashCode() {
        return items.hashCode();
    }

    @Override
    public String toString() {
        return "SortedBag" + items;
    }
}
