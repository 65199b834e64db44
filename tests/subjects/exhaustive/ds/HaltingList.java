package ds;

/**
 * A list whose add halts the JVM when 2 is added to a list of exactly one element: the worker
 * holding the structure dies, and with it every prototype it held.
 */
public class HaltingList {
    static final class Node {
        int value;
        Node next;
    }

    private Node head;
    private int size;

    public HaltingList() {}

    public void add(int v) {
        if (size == 1 && v == 2) {
            Runtime.getRuntime().halt(3);
        }
        Node n = new Node();
        n.value = v;
        n.next = head;
        head = n;
        size++;
    }
}
