package pm;

/** new Named() leaves the name null: length() then throws NullPointerException. */
public class Named {
    private final String name;

    public Named() {
        this.name = null;
    }

    public Named(String name) {
        this.name = name;
    }

    public int length() {
        return name.length();
    }
}
