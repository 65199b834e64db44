package containers;

/**
 * An unbalanced binary search tree of ints (insert, remove, contains): our version of the
 * BinSearchTree of the Rostra/Symstra benchmarks, written from its well-known behaviour.
 */
public class BinSearchTree {
    static final class Node {
        int info;
        Node left;
        Node right;

        Node(int info) {
            this.info = info;
        }
    }

    private Node root;

    public void insert(int x) {
        if (root == null) {
            root = new Node(x);
            return;
        }
        Node t = root;
        while (true) {
            if (t.info < x) {
                if (t.right == null) {
                    t.right = new Node(x);
                    return;
                }
                t = t.right;
            } else if (t.info > x) {
                if (t.left == null) {
                    t.left = new Node(x);
                    return;
                }
                t = t.left;
            } else {
                return;
            }
        }
    }

    public boolean contains(int x) {
        Node t = root;
        while (t != null) {
            if (x < t.info) {
                t = t.left;
            } else if (x > t.info) {
                t = t.right;
            } else {
                return true;
            }
        }
        return false;
    }

    public boolean remove(int x) {
        Node parent = null;
        Node t = root;
        while (t != null && t.info != x) {
            parent = t;
            t = x < t.info ? t.left : t.right;
        }
        if (t == null) {
            return false;
        }
        if (t.left != null && t.right != null) {
            Node succParent = t;
            Node succ = t.right;
            while (succ.left != null) {
                succParent = succ;
                succ = succ.left;
            }
            t.info = succ.info;
            if (succParent == t) {
                succParent.right = succ.right;
            } else {
                succParent.left = succ.right;
            }
            return true;
        }
        Node child = t.left != null ? t.left : t.right;
        if (parent == null) {
            root = child;
        } else if (parent.left == t) {
            parent.left = child;
        } else {
            parent.right = child;
        }
        return true;
    }
}
