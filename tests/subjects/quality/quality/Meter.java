package quality;

/**
 * A value class that keeps Object's identity equals and hashCode, with static final
 * constants: none of `Meter.ZERO`, `Meter.NAME` or `meter.equals(other)` is worth asserting.
 */
public final class Meter {
    public static final Meter ZERO = new Meter(Unit.GRAM, 0);
    public static final String NAME = "meter";

    private final Unit unit;
    private final int amount;

    public Meter(Unit unit, int amount) {
        this.unit = unit;
        this.amount = amount;
    }

    public Unit unit() {
        return unit;
    }

    public int amount() {
        return amount;
    }

    public Meter plus(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative");
        }
        return new Meter(unit, amount + n);
    }

    public int in(Unit other) {
        if (other == null) {
            throw new IllegalArgumentException("no unit");
        }
        return other == unit ? amount : amount * (other.ordinal() + 1);
    }

    public String describe(String name) {
        return name + ": " + amount + " " + unit.label();
    }
}
