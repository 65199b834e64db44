package org.acme.core;

/** A planted defect: equals without hashCode. */
public final class Money {
    private final long cents;
    private final String currency;

    public Money(long cents, String currency) {
        if (currency == null || currency.length() != 3) throw new IllegalArgumentException("currency");
        this.cents = cents;
        this.currency = currency;
    }

    public Money plus(Money o) {
        if (!currency.equals(o.currency)) throw new IllegalArgumentException("currency mismatch");
        return new Money(cents + o.cents, currency);
    }

    public long cents() { return cents; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Money m && m.cents == cents && m.currency.equals(currency);
    }

    @Override
    public String toString() { return cents + " " + currency; }
}
