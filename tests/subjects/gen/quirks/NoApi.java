package quirks;

/** Public, but nothing can be called from outside: jforge must say so. */
public class NoApi {
    private NoApi() {}

    private int hidden() { return 1; }

    static int packagePrivate() { return 2; }
}
