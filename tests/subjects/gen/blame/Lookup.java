package blame;

import java.util.function.Function;

/**
 * Looks keys up through a function argument. missing()'s function unboxes the null of an empty
 * table: get(key) then throws a NullPointerException without any null input, inside the
 * function the test passed in: the input's doing, not Lookup's (no error test).
 */
public class Lookup {
    private final Function<String, Integer> fn;

    public Lookup(Function<String, Integer> fn) {
        this.fn = fn;
    }

    public static Function<String, Integer> missing() {
        java.util.Map<String, Integer> none = new java.util.HashMap<>();
        return s -> none.get(s) + 1;
    }

    public int get(String key) {
        return fn.apply(key);
    }
}
