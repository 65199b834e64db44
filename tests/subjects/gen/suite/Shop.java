package suite;

import java.util.ArrayList;
import java.util.List;

/** A factory: what it returns (a Receipt, a List) is not under test, but its values are. */
public class Shop {
    private final List<String> items = new ArrayList<>();

    public Shop() {}

    public void buy(String item) {
        if (item != null) {
            items.add(item);
        }
    }

    public List<String> items() {
        return new ArrayList<>(items);
    }

    public Receipt checkout() {
        return new Receipt(items.size() * 3, !items.isEmpty());
    }
}
