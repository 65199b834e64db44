package pm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.IntBinaryOperator;
import java.util.function.Predicate;

/**
 * Methods that call their functional-interface arguments: each throws NullPointerException on
 * null, so only a lambda makes them work. Mapper is this package's own functional interface
 * (a default method besides its abstract one); Codec has two abstract methods, so no lambda
 * implements it: wire(Codec) works with an anonymous class only.
 */
public class Callbacks {
    private final List<String> items = new ArrayList<>(List.of("x", "y"));

    /** A functional interface of the subject (one abstract method, one default). */
    public interface Mapper {
        Object map(int n);

        default String twice(int n) {
            return "" + map(n) + map(n);
        }
    }

    /** Not functional: two abstract methods. */
    public interface Codec {
        String encode(String s);

        String decode(String s);
    }

    public int each(Consumer<? super String> action) {
        items.forEach(action);
        return items.size();
    }

    public String combine(BinaryOperator<String> op) {
        return op.apply(items.get(0), items.get(1)).toUpperCase();
    }

    public int fold(IntBinaryOperator op) {
        return op.applyAsInt(1, 2) + 5;
    }

    public boolean keepsAll(Predicate<String> p) {
        return !items.removeIf(p);
    }

    public int order(Comparator<String> c) {
        items.sort(c);
        return c.reversed().compare("a", "b") + items.size();
    }

    public String transform(Mapper m) {
        return m.twice(3);
    }

    /** Declares a checked exception: the benchmark methods calling it must compile. */
    public String checked(java.util.function.Supplier<String> s) throws java.io.IOException {
        return s.get() + "!";
    }

    public String wire(Codec c) {
        return c.decode(c.encode("x"));
    }
}
