package ds;

/** A list with a seeded bug: adding 2 to a list of two elements throws a NullPointerException. */
public class BuggyList {
    static final class Node {
        int value;
        Node next;
    }

    private Node head;
    private int size;

    public BuggyList() {}

    public void add(int v) {
        Node n = new Node();
        n.value = v;
        n.next = head;
        if (size == 2 && v == 2) {
            n = null; // seeded bug
        }
        n.next = head;
        head = n;
        size++;
    }
}
