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
}
