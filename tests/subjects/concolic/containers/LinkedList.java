package containers;

/**
 * A singly linked list of ints with a size (add, add at an index, remove by value, get):
 * our version of the LinkedList of the Rostra/Symstra benchmarks, written from its
 * well-known behaviour, about the same branch count.
 */
public class LinkedList {
    static final class Entry {
        int element;
        Entry next;

        Entry(int element, Entry next) {
            this.element = element;
            this.next = next;
        }
    }

    private Entry header;
    private int size;

    public void add(int o) {
        Entry e = new Entry(o, null);
        if (header == null) {
            header = e;
        } else {
            Entry t = header;
            while (t.next != null) {
                t = t.next;
            }
            t.next = e;
        }
        size++;
    }

    public boolean remove(int o) {
        Entry prev = null;
        for (Entry e = header; e != null; e = e.next) {
            if (e.element == o) {
                if (prev == null) {
                    header = e.next;
                } else {
                    prev.next = e.next;
                }
                size--;
                return true;
            }
            prev = e;
        }
        return false;
    }

    public int get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        Entry e = header;
        for (int i = 0; i < index; i++) {
            e = e.next;
        }
        return e.element;
    }

    public int size() {
        return size;
    }
}
