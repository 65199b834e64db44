package ds;

/**
 * A linked list that caches removed nodes for reuse, after commons-collections'
 * NodeCachingLinkedList (the ROOPS benchmark's version): a circular doubly linked list with a
 * header sentinel node, a count of modifications, and a singly linked cache (through {@code
 * next}) of at most {@code maximumCacheSize} removed nodes, whose value and {@code previous}
 * are cleared. Adding takes a node from the cache when there is one.
 *
 * <p>With the builders constructor + add + remove and modCount omitted, the structures of scope
 * N (at most N nodes, header included; values 0..N-1) are every list of length L with a cache
 * of C nodes, L + C &lt;= N - 1: sum over L of N^L * (N - L). At scope 8 that is 2,739,136,
 * the count BEAPI reports for ROOPS's NCL.
 */
public class NodeCachingLinkedList {
    static final class Node {
        Node previous;
        Node next;
        Object value;
    }

    static final int DEFAULT_MAXIMUM_CACHE_SIZE = 20;

    private final Node header;
    private int size;
    private int modCount;
    private Node firstCachedNode;
    private int cacheSize;
    private final int maximumCacheSize;

    public NodeCachingLinkedList() {
        this(DEFAULT_MAXIMUM_CACHE_SIZE);
    }

    public NodeCachingLinkedList(int maximumCacheSize) {
        if (maximumCacheSize < 0) {
            throw new IllegalArgumentException("negative cache size " + maximumCacheSize);
        }
        this.maximumCacheSize = maximumCacheSize;
        header = new Node();
        header.next = header;
        header.previous = header;
    }

    private Node getNodeFromCache() {
        if (cacheSize == 0) {
            return null;
        }
        Node cached = firstCachedNode;
        firstCachedNode = cached.next;
        cached.next = null;
        cacheSize--;
        return cached;
    }

    private void addNodeToCache(Node node) {
        if (cacheSize >= maximumCacheSize) {
            return;
        }
        node.previous = null;
        node.next = firstCachedNode;
        node.value = null;
        firstCachedNode = node;
        cacheSize++;
    }

    private Node createNode(Object value) {
        Node n = getNodeFromCache();
        if (n == null) {
            n = new Node();
        }
        n.value = value;
        return n;
    }

    private void addNodeBefore(Node before, Object value) {
        Node n = createNode(value);
        n.next = before;
        n.previous = before.previous;
        before.previous.next = n;
        before.previous = n;
        size++;
        modCount++;
    }

    private void removeNode(Node node) {
        node.previous.next = node.next;
        node.next.previous = node.previous;
        size--;
        modCount++;
        addNodeToCache(node);
    }

    /** Appends v. */
    public boolean add(int v) {
        addNodeBefore(header, v);
        return true;
    }

    /** Inserts v at the front. */
    public void addFirst(int v) {
        addNodeBefore(header.next, v);
    }

    /** Removes the first element equal to v (commons' remove(Object)); false if there is none. */
    public boolean remove(int v) {
        for (Node n = header.next; n != header; n = n.next) {
            if (n.value instanceof Integer i && i == v) {
                removeNode(n);
                return true;
            }
        }
        return false;
    }

    /** Removes and returns the element at index. */
    public int removeIndex(int index) {
        Node n = getNode(index);
        int v = (Integer) n.value;
        removeNode(n);
        return v;
    }

    public int get(int index) {
        return (Integer) getNode(index).value;
    }

    private Node getNode(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        Node n = header.next;
        for (int i = 0; i < index; i++) {
            n = n.next;
        }
        return n;
    }

    public int indexOf(int v) {
        int i = 0;
        for (Node n = header.next; n != header; n = n.next, i++) {
            if (n.value instanceof Integer x && x == v) {
                return i;
            }
        }
        return -1;
    }

    public boolean contains(int v) {
        return indexOf(v) >= 0;
    }

    /** Removes every element, caching as many nodes as the cache takes. */
    public void clear() {
        int toCache = Math.min(size, maximumCacheSize - cacheSize);
        Node n = header.next;
        for (int i = 0; i < toCache; i++) {
            Node old = n;
            n = n.next;
            addNodeToCache(old);
        }
        header.next = header;
        header.previous = header;
        size = 0;
        modCount++;
    }

    public int size() {
        return size;
    }

    /** The invariant: a well-linked circular list of size elements, a clean cache of cacheSize. */
    public boolean repOK() {
        if (header == null || header.next == null || header.previous == null || header.value != null) {
            return false;
        }
        int n = 0;
        Node before = header;
        for (Node x = header.next; x != header; x = x.next) {
            if (x == null || x.previous != before || ++n > size) {
                return false;
            }
            before = x;
        }
        if (header.previous != before || n != size) {
            return false;
        }
        if (cacheSize > maximumCacheSize) {
            return false;
        }
        int c = 0;
        for (Node x = firstCachedNode; x != null; x = x.next) {
            if (x.previous != null || x.value != null || ++c > cacheSize) {
                return false;
            }
        }
        return c == cacheSize;
    }
}
