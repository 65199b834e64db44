package jb;

/** An enum with behaviour of its own beside what java.lang.Enum gives every enum. */
public enum Mode {
    FAST, SAFE, OFF;

    public int retries() {
        return this == SAFE ? 3 : this == FAST ? 1 : 0;
    }

    public boolean isOn() {
        return this != OFF;
    }

    /** The enum's own factory by number, beside the {@code valueOf(String)} javac writes. */
    public static Mode valueOf(int level) {
        if (level < 0 || level >= values().length) {
            throw new IllegalArgumentException("no mode " + level);
        }
        return values()[level];
    }
}
