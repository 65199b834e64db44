package suite;

/**
 * A static setter and a static field: a test calling or writing them changes the JVM for
 * every test that runs after it (Joda-Time's DateTimeZone.setDefault made other tests fail).
 */
public class Globals {
    public static String prefix = "";
    private static String defaultName = "anon";

    public static void setDefaultName(String n) {
        defaultName = n;
    }

    private final String name;

    public Globals(String name) {
        this.name = name == null ? defaultName : name;
    }

    public String name() {
        return prefix + name;
    }
}
