package reach;

/** A package-private class named with --class: tested through its members of package access. */
class Ledger {
    private long balance;

    Ledger() {}

    void deposit(int amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive: " + amount);
        }
        balance += Math.min(amount, 1_000_000);
    }

    boolean withdraw(int amount) {
        if (amount <= 0 || amount > balance) {
            return false;
        }
        balance -= amount;
        return true;
    }

    long balance() {
        return balance;
    }
}
