package ds;

/** Fibonacci min-heap of ints: insert, extractMin (with consolidation). */
public class FibonacciHeap {
    static final class Node {
        int key, degree;
        boolean mark;
        Node left, right, parent, child;

        Node(int k) {
            key = k;
            left = right = this;
        }
    }

    private Node min;
    private int n;

    public FibonacciHeap() {}

    public void insert(int k) {
        Node x = new Node(k);
        if (min == null) {
            min = x;
        } else {
            splice(min, x);
            if (k < min.key) {
                min = x;
            }
        }
        n++;
    }

    private static void splice(Node a, Node x) {
        x.right = a.right;
        x.left = a;
        a.right.left = x;
        a.right = x;
    }

    public int extractMin() {
        Node z = min;
        if (z == null) {
            throw new IllegalStateException("empty");
        }
        if (z.child != null) {
            Node c = z.child;
            java.util.ArrayList<Node> kids = new java.util.ArrayList<>();
            do {
                kids.add(c);
                c = c.right;
            } while (c != z.child);
            for (Node k : kids) {
                k.parent = null;
                k.left.right = k.right;
                k.right.left = k.left;
                k.left = k.right = k;
                splice(z, k);
            }
            z.child = null;
        }
        z.left.right = z.right;
        z.right.left = z.left;
        if (z == z.right) {
            min = null;
        } else {
            min = z.right;
            consolidate();
        }
        n--;
        z.left = z.right = z;
        return z.key;
    }

    private void consolidate() {
        Node[] a = new Node[64];
        java.util.ArrayList<Node> roots = new java.util.ArrayList<>();
        Node c = min;
        do {
            roots.add(c);
            c = c.right;
        } while (c != min);
        for (Node w : roots) {
            Node x = w;
            int d = x.degree;
            while (a[d] != null) {
                Node y = a[d];
                if (y.key < x.key) {
                    Node t = x;
                    x = y;
                    y = t;
                }
                y.left.right = y.right;
                y.right.left = y.left;
                y.left = y.right = y;
                if (x.child == null) {
                    x.child = y;
                } else {
                    splice(x.child, y);
                }
                y.parent = x;
                y.mark = false;
                x.degree++;
                a[d] = null;
                d++;
            }
            a[d] = x;
        }
        min = null;
        for (Node x : a) {
            if (x == null) {
                continue;
            }
            if (min == null) {
                x.left = x.right = x;
                min = x;
            } else {
                splice(min, x);
                if (x.key < min.key) {
                    min = x;
                }
            }
        }
    }

    public int size() {
        return n;
    }
}
