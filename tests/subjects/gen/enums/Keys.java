package enums;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * A generic class (instantiated with String) whose static factory declares a type parameter
 * of the same name bounded by Enum, as guava's MultimapBuilder<K0, V0>.enumKeys: the
 * method's own K must not take the class's binding.
 */
public final class Keys<K> {
    private final Set<K> seen;

    private Keys(Set<K> seen) {
        this.seen = seen;
    }

    public static <K> Keys<K> hashed() {
        return new Keys<>(new HashSet<>());
    }

    public static <K extends Enum<K>> Keys<K> enumKeys(Class<K> type) {
        return new Keys<>(EnumSet.noneOf(type));
    }

    public boolean add(K k) {
        return seen.add(k);
    }

    public int size() {
        return seen.size();
    }
}
