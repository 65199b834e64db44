package reach;

/**
 * The public factory of a package-private class: its declared return type is {@link Square},
 * which tests outside this package cannot name. jforge's tests are in this package, so they
 * can keep the result and call Square's methods of package access on it.
 */
public final class Shapes {
    private static final Shapes MAKER = new Shapes();

    private Shapes() {}

    public static Square square(int side) {
        return new Square(MAKER, side < 0 ? -side : Math.min(side, 1000));
    }
}
