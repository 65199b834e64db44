package ds;

/** An unbalanced binary search tree of int keys. */
public class BinarySearchTree {
    private static final class Node {
        int key; Node left, right;
        Node(int k) { key = k; }
    }
    private Node root;
    private int size;

    public boolean add(int k) {
        if (root == null) { root = new Node(k); size++; return true; }
        Node n = root;
        while (true) {
            if (k == n.key) return false;
            if (k < n.key) { if (n.left == null) { n.left = new Node(k); size++; return true; } n = n.left; }
            else { if (n.right == null) { n.right = new Node(k); size++; return true; } n = n.right; }
        }
    }

    public boolean contains(int k) {
        Node n = root;
        while (n != null) { if (k == n.key) return true; n = k < n.key ? n.left : n.right; }
        return false;
    }

    public boolean remove(int k) {
        Node parent = null, n = root;
        while (n != null && n.key != k) { parent = n; n = k < n.key ? n.left : n.right; }
        if (n == null) return false;
        if (n.left != null && n.right != null) {
            Node sp = n, s = n.right;
            while (s.left != null) { sp = s; s = s.left; }
            n.key = s.key;
            parent = sp; n = s;
        }
        Node child = n.left != null ? n.left : n.right;
        if (parent == null) root = child;
        else if (parent.left == n) parent.left = child;
        else parent.right = child;
        size--;
        return true;
    }

    public int min() {
        if (root == null) throw new java.util.NoSuchElementException("empty tree");
        Node n = root; while (n.left != null) n = n.left; return n.key;
    }

    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }
    public int getHeight() { return height(root); }
    private static int height(Node n) { return n == null ? 0 : 1 + Math.max(height(n.left), height(n.right)); }
}
