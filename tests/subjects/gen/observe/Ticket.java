package observe;

/**
 * A ticket whose label holds its lock's identity hash ({@code Object.toString()}). Whether
 * the label is long is true in almost every JVM (the hash has more than one hex digit) and
 * false where every identity hash is 1: a value that agrees between two ordinary JVMs and
 * still depends on the identity hash.
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

    /** Longer than the name, "@java.lang.Object@" and one hex digit. */
    public boolean isLong() {
        return label().length() > name.length() + 19;
    }

    public int size() {
        return name.length();
    }
}
