package blame;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * A view over names, and two ways to make its names, as guava's Iterables does:
 * {@code fixed(a, b)} is a read-only list, {@code draining(names)} an Iterable whose iterator
 * removes each name it gives, which throws UnsupportedOperationException over a read-only
 * list, as it documents. {@code new Drain(draining(fixed(a, b))).toString()} then throws it:
 * the argument's doing (iterated alone it throws the same), not a defect of Drain.
 */
public class Drain {
    private final Iterable<String> names;

    public Drain(Iterable<String> names) {
        if (names == null) {
            throw new IllegalArgumentException("names");
        }
        this.names = names;
    }

    public static List<String> fixed(String a, String b) {
        return Collections.unmodifiableList(Arrays.asList(a, b));
    }

    /**
     * The names, each removed from {@code names} as its iterator gives it.
     * @throws UnsupportedOperationException from the iterator when {@code names} cannot remove
     */
    public static Iterable<String> draining(Iterable<String> names) {
        return new Iterable<String>() {
            @Override
            public Iterator<String> iterator() {
                Iterator<String> it = names.iterator();
                return new Iterator<String>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public String next() {
                        String s = it.next();
                        it.remove();
                        return s;
                    }
                };
            }
        };
    }

    public boolean isEmpty() {
        return !names.iterator().hasNext();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (String s : names) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(s);
        }
        return sb.append(']').toString();
    }
}
