package ds;

/** Test helper for canonical-form properties: a root over nodes with two reference fields. */
public class Graph {
    public static final class N {
        public int label;
        public N a, b;
    }

    public N[] nodes;
    public N root;

    /** Node i has label labels[i] and fields a, b pointing to nodes as[i], bs[i] (-1: null). */
    public Graph(int[] labels, int[] as, int[] bs, int rootIx) {
        N[] byOrig = new N[labels.length];
        for (int k = 0; k < labels.length; k++) {
            byOrig[k] = new N();
        }
        for (int i = 0; i < labels.length; i++) {
            byOrig[i].label = labels[i];
            byOrig[i].a = as[i] < 0 ? null : byOrig[as[i]];
            byOrig[i].b = bs[i] < 0 ? null : byOrig[bs[i]];
        }
        root = byOrig[rootIx];
    }
}
