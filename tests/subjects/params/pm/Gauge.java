package pm;

/** A level between 10 and 20: the first literal (1) is refused with IllegalArgumentException. */
public class Gauge {
    private int level = 15;

    public void set(int level) {
        if (level < 10 || level > 20) {
            throw new IllegalArgumentException("level must be within [10, 20]: " + level);
        }
        this.level = level;
    }

    public int level() {
        return level;
    }
}
