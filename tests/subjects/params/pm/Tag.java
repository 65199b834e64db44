package pm;

/** A value a cast in Registry needs. */
public class Tag {
    private final String name;

    public Tag(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }
}
