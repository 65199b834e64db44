package ds;

/** Binomial min-heap of ints: insert, extractMin. */
public class BinomialHeap {
    static final class Node {
        int key, degree;
        Node child, sibling, parent;

        Node(int k) {
            key = k;
        }
    }

    private Node head;
    private int size;

    public BinomialHeap() {}

    public void insert(int k) {
        Node n = new Node(k);
        head = union(head, n);
        size++;
    }

    public int extractMin() {
        if (head == null) {
            throw new IllegalStateException("empty");
        }
        Node min = head, minPrev = null, prev = head;
        for (Node c = head.sibling; c != null; prev = c, c = c.sibling) {
            if (c.key < min.key) {
                min = c;
                minPrev = prev;
            }
        }
        if (minPrev == null) {
            head = min.sibling;
        } else {
            minPrev.sibling = min.sibling;
        }
        Node rev = null, c = min.child;
        while (c != null) {
            Node next = c.sibling;
            c.sibling = rev;
            c.parent = null;
            rev = c;
            c = next;
        }
        head = union(head, rev);
        size--;
        return min.key;
    }

    private static Node merge(Node a, Node b) {
        Node dummy = new Node(0), t = dummy;
        while (a != null && b != null) {
            if (a.degree <= b.degree) {
                t.sibling = a;
                a = a.sibling;
            } else {
                t.sibling = b;
                b = b.sibling;
            }
            t = t.sibling;
        }
        t.sibling = a != null ? a : b;
        return dummy.sibling;
    }

    private static Node union(Node a, Node b) {
        Node h = merge(a, b);
        if (h == null) {
            return null;
        }
        Node prev = null, x = h, next = x.sibling;
        while (next != null) {
            if (x.degree != next.degree || next.sibling != null && next.sibling.degree == x.degree) {
                prev = x;
                x = next;
            } else if (x.key <= next.key) {
                x.sibling = next.sibling;
                link(next, x);
            } else {
                if (prev == null) {
                    h = next;
                } else {
                    prev.sibling = next;
                }
                link(x, next);
                x = next;
            }
            next = x.sibling;
        }
        return h;
    }

    private static void link(Node y, Node z) {
        y.parent = z;
        y.sibling = z.child;
        z.child = y;
        z.degree++;
    }

    public int size() {
        return size;
    }
}
