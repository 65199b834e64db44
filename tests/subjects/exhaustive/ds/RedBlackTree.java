package ds;

/**
 * Red-black tree of int keys: CLRS insertion with parent pointers, and deletion as in
 * java.util.TreeMap (successor key copied into the node, then the fix-up on null-safe helpers).
 */
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

    /** Removes key k if present; returns whether it was there. */
    public boolean remove(int k) {
        Node p = root;
        while (p != null && p.key != k) {
            p = k < p.key ? p.left : p.right;
        }
        if (p == null) {
            return false;
        }
        size--;
        if (p.left != null && p.right != null) {
            Node s = p.right;
            while (s.left != null) {
                s = s.left;
            }
            p.key = s.key;
            p = s;
        }
        Node repl = p.left != null ? p.left : p.right;
        if (repl != null) {
            repl.parent = p.parent;
            if (p.parent == null) {
                root = repl;
            } else if (p == p.parent.left) {
                p.parent.left = repl;
            } else {
                p.parent.right = repl;
            }
            p.left = p.right = p.parent = null;
            if (p.color == BLACK) {
                fixAfterDeletion(repl);
            }
        } else if (p.parent == null) {
            root = null;
        } else {
            if (p.color == BLACK) {
                fixAfterDeletion(p);
            }
            if (p.parent != null) {
                if (p == p.parent.left) {
                    p.parent.left = null;
                } else if (p == p.parent.right) {
                    p.parent.right = null;
                }
                p.parent = null;
            }
        }
        return true;
    }

    private static boolean colorOf(Node n) {
        return n == null ? BLACK : n.color;
    }

    private static Node parentOf(Node n) {
        return n == null ? null : n.parent;
    }

    private static void setColor(Node n, boolean c) {
        if (n != null) {
            n.color = c;
        }
    }

    private static Node leftOf(Node n) {
        return n == null ? null : n.left;
    }

    private static Node rightOf(Node n) {
        return n == null ? null : n.right;
    }

    private void fixAfterDeletion(Node x) {
        while (x != root && colorOf(x) == BLACK) {
            if (x == leftOf(parentOf(x))) {
                Node sib = rightOf(parentOf(x));
                if (colorOf(sib) == RED) {
                    setColor(sib, BLACK);
                    setColor(parentOf(x), RED);
                    rotL(parentOf(x));
                    sib = rightOf(parentOf(x));
                }
                if (colorOf(leftOf(sib)) == BLACK && colorOf(rightOf(sib)) == BLACK) {
                    setColor(sib, RED);
                    x = parentOf(x);
                } else {
                    if (colorOf(rightOf(sib)) == BLACK) {
                        setColor(leftOf(sib), BLACK);
                        setColor(sib, RED);
                        rotR(sib);
                        sib = rightOf(parentOf(x));
                    }
                    setColor(sib, colorOf(parentOf(x)));
                    setColor(parentOf(x), BLACK);
                    setColor(rightOf(sib), BLACK);
                    rotL(parentOf(x));
                    x = root;
                }
            } else {
                Node sib = leftOf(parentOf(x));
                if (colorOf(sib) == RED) {
                    setColor(sib, BLACK);
                    setColor(parentOf(x), RED);
                    rotR(parentOf(x));
                    sib = leftOf(parentOf(x));
                }
                if (colorOf(rightOf(sib)) == BLACK && colorOf(leftOf(sib)) == BLACK) {
                    setColor(sib, RED);
                    x = parentOf(x);
                } else {
                    if (colorOf(leftOf(sib)) == BLACK) {
                        setColor(rightOf(sib), BLACK);
                        setColor(sib, RED);
                        rotL(sib);
                        sib = leftOf(parentOf(x));
                    }
                    setColor(sib, colorOf(parentOf(x)));
                    setColor(parentOf(x), BLACK);
                    setColor(leftOf(sib), BLACK);
                    rotR(parentOf(x));
                    x = root;
                }
            }
        }
        setColor(x, BLACK);
    }

    /** Red-black invariants: BST order, parent links, red nodes have black children, equal black heights. */
    public boolean repOK() {
        if (root == null) {
            return size == 0;
        }
        if (root.parent != null || root.color != BLACK) {
            return false;
        }
        int[] n = new int[1];
        return check(root, Long.MIN_VALUE, Long.MAX_VALUE, n) >= 0 && n[0] == size;
    }

    private static int check(Node x, long lo, long hi, int[] n) {
        if (x == null) {
            return 1;
        }
        n[0]++;
        if (x.key <= lo || x.key >= hi) {
            return -1;
        }
        if (x.left != null && x.left.parent != x || x.right != null && x.right.parent != x) {
            return -1;
        }
        if (x.color == RED && (colorOf(x.left) == RED || colorOf(x.right) == RED)) {
            return -1;
        }
        int l = check(x.left, lo, x.key, n), r = check(x.right, x.key, hi, n);
        if (l < 0 || r < 0 || l != r) {
            return -1;
        }
        return l + (x.color == BLACK ? 1 : 0);
    }

    public int size() {
        return size;
    }
}
