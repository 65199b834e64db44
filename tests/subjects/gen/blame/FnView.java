package blame;

import java.util.function.Function;

/**
 * A lazy view whose hashCode applies a function argument to its key: when the function throws
 * for that key (the test passed it in), the view does what it says, as Guava's views do. No
 * error test may be written for it.
 */
public class FnView {
    private final String key;
    private final Function<String, Integer> fn;

    public FnView(String key, Function<String, Integer> fn) {
        this.key = key;
        this.fn = fn;
    }

    /** A function defined for one key only: it throws for every other key. */
    public static Function<String, Integer> only(String known) {
        return s -> {
            if (!s.equals(known)) {
                throw new IllegalArgumentException("unknown key: " + s);
            }
            return s.length();
        };
    }

    public int value() {
        return fn.apply(key);
    }

    public String key() {
        return key;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FnView v && v.key.equals(key) && v.value() == value();
    }

    @Override
    public int hashCode() {
        return fn.apply(key);
    }

    @Override
    public String toString() {
        return "FnView(" + key + ")";
    }
}
