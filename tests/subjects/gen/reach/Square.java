package reach;

/**
 * Package-private, and made only by {@link Shapes#square(int)}: its constructor needs the one
 * {@link Shapes} instance, which no test can get.
 */
final class Square {
    private final int side;

    Square(Shapes maker, int side) {
        if (maker == null) {
            throw new IllegalArgumentException("made by Shapes.square only");
        }
        this.side = side;
    }

    int side() {
        return side;
    }

    public int area() {
        return side * side;
    }

    /**
     * Throws for k = 13, reached only through this method of package access: a bug or a
     * precondition its package keeps, which jforge cannot tell apart (set aside as
     * internal-call, not an error test).
     */
    int scaledArea(int k) {
        if (k == 13 && side > 2) {
            int[] table = null;
            return table.length; // NullPointerException though no input was null
        }
        return area() * k;
    }
}
