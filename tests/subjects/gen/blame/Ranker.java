package blame;

import java.util.Comparator;
import java.util.function.Function;

/**
 * Compares strings by a key that a function argument computes, with a natural order that
 * throws a NullPointerException for a null key, as documented (like commons-collections'
 * TransformingComparator over ComparableComparator). Built with nothing(), whose function
 * returns null, compare throws in Natural after the function returned: the function
 * argument's null, set aside as "null-input", no error test.
 */
public class Ranker {
    private final Function<String, String> key;
    private final Comparator<String> order = new Natural();

    public Ranker(Function<String, String> key) {
        this.key = key;
    }

    /** A key function that returns null for every string. */
    public static Function<String, String> nothing() {
        return s -> null;
    }

    /** The string in upper case. */
    public static Function<String, String> upper() {
        return String::toUpperCase;
    }

    public int compare(String a, String b) {
        return order.compare(key.apply(a), key.apply(b));
    }

    /** Natural order; a null key throws a NullPointerException (documented). */
    static final class Natural implements Comparator<String> {
        @Override
        public int compare(String a, String b) {
            return a.compareTo(b);
        }
    }
}
