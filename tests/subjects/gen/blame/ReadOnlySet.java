package blame;

import java.util.AbstractSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.Set;

/**
 * A read-only decorator of a Set, as commons-collections' UnmodifiableSet: equals and
 * hashCode are the decorated set's (its own code is right; what it holds may not be). Built
 * only inside the library (Shelf.readOnlyLabels()), never from an argument of a test.
 */
public final class ReadOnlySet<E> extends AbstractSet<E> {
    private final Set<E> decorated;

    ReadOnlySet(Set<E> decorated) {
        this.decorated = decorated;
    }

    @Override
    public Iterator<E> iterator() {
        return Collections.unmodifiableSet(decorated).iterator();
    }

    @Override
    public int size() {
        return decorated.size();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || decorated.equals(o);
    }

    @Override
    public int hashCode() {
        return decorated.hashCode();
    }
}
