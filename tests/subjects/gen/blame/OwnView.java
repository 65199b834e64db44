package blame;

import java.util.function.Function;

/**
 * The same kind of view as FnView, but its hashCode throws on its own (an off-by-one over its
 * key: a planted bug jforge must report, naming OwnView.hashCode).
 */
public class OwnView {
    private final String key;
    private final Function<String, Integer> fn;

    public OwnView(String key, Function<String, Integer> fn) {
        this.key = key;
        this.fn = fn;
    }

    public static Function<String, Integer> lengths() {
        return String::length;
    }

    public int value() {
        return fn.apply(key);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OwnView v && v.key.equals(key);
    }

    @Override
    public int hashCode() {
        int h = 0;
        for (int i = 0; i <= key.length(); i++) {
            h = 31 * h + key.charAt(i);
        }
        return h;
    }

    @Override
    public String toString() {
        return "OwnView(" + key + ")";
    }
}
