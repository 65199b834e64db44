package quality;

/** An enum under test: its constants are static field reads in a test. */
public enum Unit implements Ranked {
    GRAM,
    KILO,
    TON;

    public Unit bigger() {
        return this == TON ? TON : values()[ordinal() + 1];
    }

    @Override
    public String label() {
        return name().toLowerCase();
    }
}
