package ds;

/** AVL tree of int keys (set semantics). */
public class AvlTree {
    static final class Node {
        int key, height;
        Node left, right;

        Node(int k) {
            key = k;
            height = 1;
        }
    }

    private Node root;

    public AvlTree() {}

    private static int h(Node n) {
        return n == null ? 0 : n.height;
    }

    private static void fix(Node n) {
        n.height = Math.max(h(n.left), h(n.right)) + 1;
    }

    private static Node rotR(Node y) {
        Node x = y.left;
        y.left = x.right;
        x.right = y;
        fix(y);
        fix(x);
        return x;
    }

    private static Node rotL(Node x) {
        Node y = x.right;
        x.right = y.left;
        y.left = x;
        fix(x);
        fix(y);
        return y;
    }

    public void add(int k) {
        root = insert(root, k);
    }

    private static Node insert(Node n, int k) {
        if (n == null) {
            return new Node(k);
        }
        if (k < n.key) {
            n.left = insert(n.left, k);
        } else if (k > n.key) {
            n.right = insert(n.right, k);
        } else {
            return n;
        }
        fix(n);
        int b = h(n.left) - h(n.right);
        if (b > 1) {
            if (k > n.left.key) {
                n.left = rotL(n.left);
            }
            return rotR(n);
        }
        if (b < -1) {
            if (k < n.right.key) {
                n.right = rotR(n.right);
            }
            return rotL(n);
        }
        return n;
    }

    public boolean contains(int k) {
        Node c = root;
        while (c != null) {
            if (k == c.key) {
                return true;
            }
            c = k < c.key ? c.left : c.right;
        }
        return false;
    }
}
