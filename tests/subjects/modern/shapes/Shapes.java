package shapes;

/** Pattern switches over the sealed hierarchy (Java 21). */
public final class Shapes {
    private Shapes() {}

    /** Area rounded down (pi as 355/113). */
    public static long area(Shape s) {
        return switch (s) {
            case Circle c -> 355L * c.radius() * c.radius() / 113;
            case Square q -> (long) q.side() * q.side();
            case Rect(int w, int h) when w == h -> (long) w * w;
            case Rect(int w, int h) -> (long) w * h;
        };
    }

    /** A short description; record patterns and guards. */
    public static String describe(Object o) {
        return switch (o) {
            case null -> "nothing";
            case Circle(int r) when r == 0 -> "a point";
            case Circle c -> "a circle of radius " + c.radius();
            case Square(int side) -> "a square of side " + side;
            case Rect r when r.width() > r.height() -> "a wide rectangle";
            case Rect r -> "a tall rectangle";
            case String str -> "the word " + str;
            default -> "something else";
        };
    }

    /** The larger of two shapes by area. */
    public static Shape larger(Shape a, Shape b) {
        return area(a) >= area(b) ? a : b;
    }
}
