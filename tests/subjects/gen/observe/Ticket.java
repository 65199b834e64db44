package observe;

/**
 * A ticket whose label holds its lock's identity hash ({@code Object.toString()}). Whether
 * the label is short is false in an ordinary JVM (the hash has seven or eight hex digits)
 * and true where identity hashes are small: a value that agrees between two ordinary JVMs
 * and still depends on the identity hash.
 */
public class Ticket {
    private final Object lock = new Object();
    private final String name;

    public Ticket(String name) {
        this.name = name == null ? "" : name;
    }

    /** {@code name@java.lang.Object@1b6d3586}. */
    public String label() {
        return name + "@" + lock;
    }

    /** Shorter than the name, "@java.lang.Object@" and five hex digits. */
    public boolean isShort() {
        return label().length() < name.length() + 18 + 5;
    }

    public int size() {
        return name.length();
    }
}
