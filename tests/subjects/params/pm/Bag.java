package pm;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.NoSuchElementException;

/** A state that needs a relative operation: take() works once add() was called. */
public class Bag {
    private final Deque<String> items = new ArrayDeque<>();

    public void add(String s) {
        items.push(s);
    }

    public String take() {
        if (items.isEmpty()) {
            throw new NoSuchElementException("the bag is empty");
        }
        return items.pop();
    }
}
