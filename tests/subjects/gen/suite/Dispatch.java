package suite;

/**
 * Each branch is reached by few of the sequences a run generates: the written suite must keep
 * them all even when it may hold only a few tests.
 */
public class Dispatch {
    private int mode;

    public Dispatch() {}

    public Dispatch(int mode) { this.mode = mode; }

    public void setMode(int m) { mode = m; }

    public String route(int code) {
        switch (mode) {
            case 1:
                if (code == 7) return "one-seven";
                return "one";
            case 2:
                if (code > 100) return "two-big";
                return "two";
            case 3:
                if (code < -5) return "three-negative";
                return "three";
            default:
                break;
        }
        if (code == 42) return "answer";
        if (code == 1000) return "thousand";
        return "none";
    }

    public int weight(String s) {
        if (s == null) return -1;
        if (s.isEmpty()) return 0;
        if (s.length() > 3) return 2;
        return 1;
    }
}
