package ds;

/** Red-black tree of int keys (CLRS insertion with parent pointers). */
public class RedBlackTree {
    static final boolean RED = true, BLACK = false;

    static final class Node {
        int key;
        boolean color = RED;
        Node left, right, parent;

        Node(int k, Node p) {
            key = k;
            parent = p;
        }
    }

    private Node root;
    private int size;

    public RedBlackTree() {}

    public void add(int k) {
        Node p = null, c = root;
        while (c != null) {
            if (k == c.key) {
                return;
            }
            p = c;
            c = k < c.key ? c.left : c.right;
        }
        Node z = new Node(k, p);
        if (p == null) {
            root = z;
        } else if (k < p.key) {
            p.left = z;
        } else {
            p.right = z;
        }
        size++;
        while (z.parent != null && z.parent.color == RED) {
            Node g = z.parent.parent;
            if (z.parent == g.left) {
                Node u = g.right;
                if (u != null && u.color == RED) {
                    z.parent.color = BLACK;
                    u.color = BLACK;
                    g.color = RED;
                    z = g;
                } else {
                    if (z == z.parent.right) {
                        z = z.parent;
                        rotL(z);
                    }
                    z.parent.color = BLACK;
                    g.color = RED;
                    rotR(g);
                }
            } else {
                Node u = g.left;
                if (u != null && u.color == RED) {
                    z.parent.color = BLACK;
                    u.color = BLACK;
                    g.color = RED;
                    z = g;
                } else {
                    if (z == z.parent.left) {
                        z = z.parent;
                        rotR(z);
                    }
                    z.parent.color = BLACK;
                    g.color = RED;
                    rotL(g);
                }
            }
        }
        root.color = BLACK;
    }

    private void rotL(Node x) {
        Node y = x.right;
        x.right = y.left;
        if (y.left != null) {
            y.left.parent = x;
        }
        y.parent = x.parent;
        if (x.parent == null) {
            root = y;
        } else if (x == x.parent.left) {
            x.parent.left = y;
        } else {
            x.parent.right = y;
        }
        y.left = x;
        x.parent = y;
    }

    private void rotR(Node x) {
        Node y = x.left;
        x.left = y.right;
        if (y.right != null) {
            y.right.parent = x;
        }
        y.parent = x.parent;
        if (x.parent == null) {
            root = y;
        } else if (x == x.parent.right) {
            x.parent.right = y;
        } else {
            x.parent.left = y;
        }
        y.right = x;
        x.parent = y;
    }

    public int size() {
        return size;
    }
}
