package ds;

/** A correct list whose repOK is too strong: it rejects lists holding equal adjacent values. */
public class StrongRepOkList {
    static final class Node {
        int value;
        Node next;
    }

    private Node head;
    private int size;

    public StrongRepOkList() {}

    public void add(int v) {
        Node n = new Node();
        n.value = v;
        n.next = head;
        head = n;
        size++;
    }

    public boolean repOK() {
        int n = 0;
        for (Node c = head; c != null; c = c.next) {
            n++;
            if (c.next != null && c.next.value == c.value) {
                return false; // too strong: duplicates are legal
            }
        }
        return n == size;
    }
}
