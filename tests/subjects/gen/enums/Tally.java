package enums;

import java.util.EnumMap;
import java.util.Map;

/**
 * A class whose type parameter is bounded by its own enum (as guava's EnumMultiset): no
 * String or Integer fits it, so an enum must stand in.
 */
public final class Tally<E extends Enum<E>> {
    private final Map<E, Integer> counts;

    private Tally(Class<E> type) {
        counts = new EnumMap<>(type);
    }

    public static <E extends Enum<E>> Tally<E> of(Class<E> type) {
        return new Tally<>(type);
    }

    public int add(E e) {
        if (e.ordinal() % 2 == 0) {
            return counts.merge(e, 2, Integer::sum);
        }
        return counts.merge(e, 1, Integer::sum);
    }

    public int distinct() {
        return counts.size();
    }
}
