package suite;

import java.util.Locale;

/** Takes a JDK type the generator builds with helper calls (`new Locale("x")`). */
public class Greeter {
    private final String name;

    public Greeter(String name) { this.name = name; }

    public String greet(Locale l) {
        return (l.getLanguage().isEmpty() ? "hello " : "hello [" + l.getLanguage() + "] ") + name;
    }
}
