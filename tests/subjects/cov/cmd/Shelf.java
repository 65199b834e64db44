package cmd;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A shelf whose cursor is a private class: its branches run only when methods are called on
 * the Iterator that cursor() returns.
 */
public class Shelf {
    private final ArrayList<String> items = new ArrayList<>();

    public void put(String s) {
        items.add(s);
    }

    public int size() {
        return items.size();
    }

    public Iterator<String> cursor() {
        return new Cursor();
    }

    private final class Cursor implements Iterator<String> {
        private int i;
        private boolean removed = true;

        @Override
        public boolean hasNext() {
            return i < items.size();
        }

        @Override
        public String next() {
            if (i >= items.size()) {
                throw new NoSuchElementException();
            }
            removed = false;
            return items.get(i++);
        }

        @Override
        public void remove() {
            if (removed) {
                throw new IllegalStateException("next() first");
            }
            removed = true;
            items.remove(--i);
        }
    }
}
