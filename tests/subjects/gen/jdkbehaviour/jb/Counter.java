package jb;

/** A counter that does not override equals: two counters are equal only when they are one. */
public class Counter {
    private int n;
    private Mode mode = Mode.SAFE;

    public Counter add(int k) {
        if (mode.isOn()) {
            n += k;
        }
        return this;
    }

    public void setMode(Mode m) {
        mode = m == null ? Mode.OFF : m;
    }

    public int getN() {
        return n;
    }

    public Mode getMode() {
        return mode;
    }
}
