package ds;

/** Singly linked list of ints; add appends. */
public class SinglyLinkedList {
    static final class Node {
        int value;
        Node next;
    }

    private Node header;
    private int size;

    public SinglyLinkedList() {}

    public void add(int v) {
        Node n = new Node();
        n.value = v;
        if (header == null) {
            header = n;
        } else {
            Node c = header;
            while (c.next != null) {
                c = c.next;
            }
            c.next = n;
        }
        size++;
    }

    public int size() {
        return size;
    }

    public boolean repOK() {
        int n = 0;
        for (Node c = header; c != null; c = c.next) {
            if (++n > size) {
                return false;
            }
        }
        return n == size;
    }
}
