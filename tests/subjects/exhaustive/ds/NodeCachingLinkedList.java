package ds;

/** Linked list that caches removed nodes for reuse (after commons-collections). */
public class NodeCachingLinkedList {
    static final class Node {
        int value;
        Node next;
    }

    static final int MAX_CACHE = 3;
    private Node header;
    private int size;
    private Node firstCached;
    private int cacheSize;

    public NodeCachingLinkedList() {}

    private Node newNode() {
        if (firstCached == null) {
            return new Node();
        }
        Node n = firstCached;
        firstCached = n.next;
        n.next = null;
        cacheSize--;
        return n;
    }

    public void add(int v) {
        Node n = newNode();
        n.value = v;
        n.next = header;
        header = n;
        size++;
    }

    public int remove() {
        if (header == null) {
            throw new IllegalStateException("empty");
        }
        Node n = header;
        header = n.next;
        size--;
        int v = n.value;
        if (cacheSize < MAX_CACHE) {
            n.value = 0;
            n.next = firstCached;
            firstCached = n;
            cacheSize++;
        }
        return v;
    }

    public int size() {
        return size;
    }
}
