package blame;

/** equals ignores the currency, hashCode does not: a planted equals-hashcode bug. */
public class Money {
    private final int cents;
    private final String currency;

    public Money(int cents, String currency) {
        this.cents = cents;
        this.currency = currency;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Money m && m.cents == cents;
    }

    @Override
    public int hashCode() {
        return 31 * cents + (currency == null ? 0 : currency.hashCode());
    }

    @Override
    public String toString() {
        return "Money(" + cents + " " + currency + ")";
    }
}
