package blame;

import java.util.AbstractSet;
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
        Iterator<E> it = decorated.iterator();
        return new Iterator<E>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public E next() {
                return it.next();
            }
        };
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
