package containers;

/**
 * A min binomial heap of ints (insert, findMinimum, extractMin, decreaseKey of a key,
 * delete of a key, union of root lists): our version of the BinomialHeap of the
 * Rostra/Symstra benchmarks, written from its well-known behaviour (Cormen et al.).
 */
public class BinomialHeap {
    static final class Node {
        int key;
        int degree;
        Node parent;
        Node child;
        Node sibling;

        Node(int key) {
            this.key = key;
        }

        Node find(int k) {
            Node t = this;
            while (t != null) {
                if (t.key == k) {
                    return t;
                }
                if (t.child != null) {
                    Node found = t.child.find(k);
                    if (found != null) {
                        return found;
                    }
                }
                t = t.sibling;
            }
            return null;
        }
    }

    private Node nodes;
    private int size;

    public void insert(int key) {
        Node n = new Node(key);
        if (nodes == null) {
            nodes = n;
        } else {
            union(n);
        }
        size++;
    }

    public int findMinimum() {
        if (nodes == null) {
            throw new IllegalStateException("empty heap");
        }
        Node x = nodes;
        int min = x.key;
        while (x != null) {
            if (x.key < min) {
                min = x.key;
            }
            x = x.sibling;
        }
        return min;
    }

    private Node merge(Node a, Node b) {
        Node head = null;
        Node tail = null;
        while (a != null || b != null) {
            Node next;
            if (b == null || (a != null && a.degree <= b.degree)) {
                next = a;
                a = a.sibling;
            } else {
                next = b;
                b = b.sibling;
            }
            if (tail == null) {
                head = next;
            } else {
                tail.sibling = next;
            }
            tail = next;
        }
        return head;
    }

    private void union(Node other) {
        nodes = merge(nodes, other);
        Node prev = null;
        Node x = nodes;
        Node next = x.sibling;
        while (next != null) {
            if (x.degree != next.degree || (next.sibling != null && next.sibling.degree == x.degree)) {
                prev = x;
                x = next;
            } else if (x.key <= next.key) {
                x.sibling = next.sibling;
                link(next, x);
            } else {
                if (prev == null) {
                    nodes = next;
                } else {
                    prev.sibling = next;
                }
                link(x, next);
                x = next;
            }
            next = x.sibling;
        }
    }

    private static void link(Node child, Node parent) {
        child.parent = parent;
        child.sibling = parent.child;
        parent.child = child;
        parent.degree++;
    }

    public int extractMin() {
        if (nodes == null) {
            throw new IllegalStateException("empty heap");
        }
        Node min = nodes;
        Node minPrev = null;
        Node prev = nodes;
        for (Node x = nodes.sibling; x != null; prev = x, x = x.sibling) {
            if (x.key < min.key) {
                min = x;
                minPrev = prev;
            }
        }
        if (minPrev == null) {
            nodes = min.sibling;
        } else {
            minPrev.sibling = min.sibling;
        }
        Node reversed = null;
        Node c = min.child;
        while (c != null) {
            Node next = c.sibling;
            c.sibling = reversed;
            c.parent = null;
            reversed = c;
            c = next;
        }
        if (nodes == null) {
            nodes = reversed;
        } else if (reversed != null) {
            union(reversed);
        }
        size--;
        return min.key;
    }

    public boolean decreaseKey(int old, int key) {
        if (key > old || nodes == null) {
            return false;
        }
        Node x = nodes.find(old);
        if (x == null) {
            return false;
        }
        x.key = key;
        Node y = x.parent;
        while (y != null && x.key < y.key) {
            int t = x.key;
            x.key = y.key;
            y.key = t;
            x = y;
            y = x.parent;
        }
        return true;
    }

    public boolean delete(int key) {
        if (nodes == null || nodes.find(key) == null) {
            return false;
        }
        decreaseKey(key, Integer.MIN_VALUE);
        extractMin();
        return true;
    }

    public int size() {
        return size;
    }
}
