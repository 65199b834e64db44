package css;

/**
 * A receiver whose interesting state needs two prior calls with the right arguments:
 * `open()` returns 2 only after `setA(7)` and `setB(21)` (in either order), and the class
 * has no public constructor (a static factory makes it). The test subject of jforge
 * concolic's Candidate Sequence Search: a public constructor alone cannot reach the branch.
 */
public final class Lock {
    private int a;
    private int b;
    private int unrelated;

    private Lock() {}

    public static Lock create() {
        return new Lock();
    }

    public void setA(int x) {
        a = x;
    }

    public void setB(int x) {
        b = x;
    }

    /** Writes a field that open() never reads: CSS must not prepend it. */
    public void touch(int x) {
        unrelated = x;
    }

    public int open() {
        if (a == 7) {
            if (b == a * 3) {
                return 2;
            }
            return 1;
        }
        return 0;
    }

    public int unrelated() {
        return unrelated;
    }
}
