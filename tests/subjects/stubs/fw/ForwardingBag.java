package fw;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * A forwarding decorator (as guava's Forwarding* classes): abstract, no implementation
 * anywhere, every method goes through delegate(). Only an anonymous subclass whose
 * delegate() returns a list built earlier gives its methods a receiver; a delegate() that
 * returns null makes them throw NullPointerException, which is no defect of the bag.
 */
public abstract class ForwardingBag {
    protected ForwardingBag() {}

    protected abstract List<String> delegate();

    public int size() {
        return delegate().size();
    }

    public boolean isEmpty() {
        return delegate().isEmpty();
    }

    public boolean add(String s) {
        if (s == null) {
            throw new IllegalArgumentException("null element");
        }
        return delegate().add(s);
    }

    public int count(String s) {
        int n = 0;
        for (String x : delegate()) {
            if (x.equals(s)) {
                n++;
            }
        }
        return n;
    }

    public String first() {
        if (delegate().isEmpty()) {
            throw new NoSuchElementException("empty bag");
        }
        return delegate().get(0);
    }
}
