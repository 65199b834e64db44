package suite;

/** What {@link Shop#checkout()} returns. */
public class Receipt {
    private final int total;
    private final boolean paid;

    Receipt(int total, boolean paid) {
        this.total = total;
        this.paid = paid;
    }

    public int getTotal() { return total; }

    public boolean isPaid() { return paid; }
}
