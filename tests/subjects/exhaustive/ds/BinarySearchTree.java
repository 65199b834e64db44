package ds;

/** Binary search tree of int keys (no duplicates) with add and remove. */
public class BinarySearchTree {
    static final class Node {
        int key;
        Node left, right;

        Node(int k) {
            key = k;
        }
    }

    private Node root;
    private int size;

    public BinarySearchTree() {}

    public boolean add(int k) {
        if (root == null) {
            root = new Node(k);
            size++;
            return true;
        }
        Node c = root;
        while (true) {
            if (k == c.key) {
                return false;
            }
            if (k < c.key) {
                if (c.left == null) {
                    c.left = new Node(k);
                    size++;
                    return true;
                }
                c = c.left;
            } else {
                if (c.right == null) {
                    c.right = new Node(k);
                    size++;
                    return true;
                }
                c = c.right;
            }
        }
    }

    public boolean remove(int k) {
        Node parent = null, c = root;
        while (c != null && c.key != k) {
            parent = c;
            c = k < c.key ? c.left : c.right;
        }
        if (c == null) {
            return false;
        }
        if (c.left != null && c.right != null) {
            Node sp = c, s = c.right;
            while (s.left != null) {
                sp = s;
                s = s.left;
            }
            c.key = s.key;
            if (sp == c) {
                sp.right = s.right;
            } else {
                sp.left = s.right;
            }
        } else {
            Node child = c.left != null ? c.left : c.right;
            if (parent == null) {
                root = child;
            } else if (parent.left == c) {
                parent.left = child;
            } else {
                parent.right = child;
            }
        }
        size--;
        return true;
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

    public int size() {
        return size;
    }

    public boolean repOK() {
        return count(root, Long.MIN_VALUE, Long.MAX_VALUE) == size;
    }

    private static int count(Node n, long lo, long hi) {
        if (n == null) {
            return 0;
        }
        if (n.key <= lo || n.key >= hi) {
            return -1_000_000;
        }
        return 1 + count(n.left, lo, n.key) + count(n.right, n.key, hi);
    }
}
