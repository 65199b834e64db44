package ds;

/**
 * Disjoint sets over the elements 0..n-1 (union-find, after the JGraphT UnionFind of the
 * FASE'19 builders paper): union by rank, path compression in find.
 *
 * <p>No method adds anything: the structures grow only by union, so a sufficient set of
 * builders needs {@code union}, which is no "add". {@code find} and {@code connected} compress
 * paths, so they change the structure although they look like observers; but {@code union(x, x)}
 * compresses the path of x just as {@code find(x)} does, so they are superfluous. {@code sets()}
 * and {@code size()} are observers. Minimal sufficient set: the constructor and union.
 */
public class DisjointSets {
    private final int[] parent;
    private final int[] rank;
    private int sets;

    public DisjointSets(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative size " + n);
        }
        parent = new int[n];
        rank = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        sets = n;
    }

    /** The representative of x's set; compresses the path from x to it. */
    public int find(int x) {
        check(x);
        int root = x;
        while (parent[root] != root) {
            root = parent[root];
        }
        while (parent[x] != root) {
            int next = parent[x];
            parent[x] = root;
            x = next;
        }
        return root;
    }

    /** Merges the sets of a and b; false if they were one set already. */
    public boolean union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra == rb) {
            return false;
        }
        if (rank[ra] < rank[rb]) {
            parent[ra] = rb;
        } else if (rank[ra] > rank[rb]) {
            parent[rb] = ra;
        } else {
            parent[rb] = ra;
            rank[ra]++;
        }
        sets--;
        return true;
    }

    public boolean connected(int a, int b) {
        return find(a) == find(b);
    }

    /** Number of disjoint sets. */
    public int sets() {
        return sets;
    }

    /** Number of elements. */
    public int size() {
        return parent.length;
    }

    private void check(int x) {
        if (x < 0 || x >= parent.length) {
            throw new IllegalArgumentException("no element " + x + " in 0.." + (parent.length - 1));
        }
    }
}
