package p;

/** String concatenation and a record: javac's bootstrap arguments are not literals. */
public class Orders {
    public static String check(int quantity) {
        if (quantity <= 0) throw new IllegalArgumentException("quantity must be positive: " + quantity);
        return "order of " + quantity + " items";
    }

    public record Line(String sku, int quantity) {}
}
