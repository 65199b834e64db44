package ds;

/** Circular doubly linked list with a header node; add appends, removeFirst pops. */
public class DoublyLinkedList {
    static final class Entry {
        int element;
        Entry next, previous;
    }

    private final Entry header = new Entry();
    private int size;

    public DoublyLinkedList() {
        header.next = header.previous = header;
    }

    public void add(int v) {
        Entry e = new Entry();
        e.element = v;
        e.next = header;
        e.previous = header.previous;
        header.previous.next = e;
        header.previous = e;
        size++;
    }

    public int removeFirst() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
        Entry e = header.next;
        header.next = e.next;
        e.next.previous = header;
        size--;
        return e.element;
    }

    public int size() {
        return size;
    }
}
