package ds;

/**
 * A list whose equals breaks reflexivity once it holds three elements, and whose hashCode
 * throws when its first element is 3: contract violations that only some structures show.
 */
public class BadEqualsList {
    static final class Node {
        int value;
        Node next;
    }

    private Node head;
    private int size;

    public BadEqualsList() {}

    public void add(int v) {
        Node n = new Node();
        n.value = v;
        n.next = head;
        head = n;
        size++;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BadEqualsList l) || l.size != size || size >= 3) {
            return false;
        }
        for (Node a = head, b = l.head; a != null; a = a.next, b = b.next) {
            if (a.value != b.value) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        if (head != null && head.value == 3) {
            throw new IllegalStateException("no hash for 3");
        }
        int h = size;
        for (Node a = head; a != null; a = a.next) {
            h = 31 * h + a.value;
        }
        return h;
    }
}
