package jforge.worker;

/**
 * A per-class value (a layout) with the class met last remembered in front of its ClassValue:
 * the structures the copier and the canonical walk go through are mostly objects of one class,
 * and a ClassValue lookup per object showed in their profiles. Not thread-safe: one per
 * walker, and the worker is single-threaded.
 */
final class LastClass<T> {
    private final ClassValue<T> values;
    private Class<?> last;
    private T lastValue;

    LastClass(ClassValue<T> values) {
        this.values = values;
    }

    T get(Class<?> c) {
        if (c != last) {
            lastValue = values.get(c);
            last = c;
        }
        return lastValue;
    }
}
