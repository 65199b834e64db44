package pkgview;

import java.util.List;

/**
 * The package's one public class: its factory returns a package-private list (as guava's
 * public API returns its package-private implementations), whose branches only calls
 * through the List interface reach.
 */
public final class Evens {
    private Evens() {}

    public static List<Integer> upTo(int n) {
        return new EvenList(n < 0 ? 0 : Math.min(n, 1000));
    }
}
