package quirks;

/** Public, but nothing can be called, not even from its own package: jforge must say so. */
public class NoApi {
    private NoApi() {}

    private int hidden() { return 1; }

    private static int alsoHidden() { return 2; }
}
