package quirks;

/** Throws a NullPointerException without any null input: an error jforge must report. */
public class Npe {
    private String name;

    public Npe() {}

    public void setName(String n) { name = n; }

    public int nameLength() { return name.length(); }

    public String greet(String who) {
        return "hello " + who.trim();
    }
}
