package ds;

/**
 * A list whose {@code grow(v)} adds v, records the size it reached, and returns a new list
 * twice as long: from size 2 on, its result is out of scope before its receiver is. BEAPI
 * drops a sequence when any of its values is out of scope, so a list that recorded a size of 3
 * or more is never reached. Prototype reuse must drop it too.
 */
public class SpawningList {
    static final class Node {
        int value;
        Node next;
    }

    private Node head;
    private int size;
    /** The size right after the last grow (0: never grown). */
    private int grownAt;

    public void add(int v) {
        Node n = new Node();
        n.value = v;
        n.next = head;
        head = n;
        size++;
    }

    public SpawningList grow(int v) {
        add(v);
        grownAt = size;
        SpawningList r = new SpawningList();
        for (int i = 0; i < 2 * size; i++) {
            r.add(v);
        }
        return r;
    }

    public int size() {
        return size;
    }
}
