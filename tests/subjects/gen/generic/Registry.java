package generic;

import java.util.HashMap;
import java.util.Map;

/**
 * Generic methods that take a class literal, as commons-csv's `Enum.valueOf(QuoteMode.class,
 * ..)` and `builder.getChannel(Channel.class)`: the tests that call them name their type
 * arguments (`registry0.<Mode>get(Mode.class)`) and pass `X.class`.
 */
public final class Registry {
    public enum Mode {
        FAST,
        SLOW
    }

    private final Map<Class<?>, Object> values = new HashMap<>();

    public <T> Registry put(Class<T> type, T value) {
        values.put(type, value);
        return this;
    }

    public <T> T get(Class<T> type) {
        Object v = values.get(type);
        if (v == null) {
            throw new IllegalStateException("nothing for " + type.getSimpleName());
        }
        return type.cast(v);
    }

    public int size() {
        return values.size();
    }

    public static <E extends Enum<E>> E parse(Class<E> type, String name) {
        return Enum.valueOf(type, name.trim().toUpperCase());
    }
}
