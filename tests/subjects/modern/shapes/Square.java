package shapes;

public record Square(int side) implements Shape {
    public Square {
        if (side < 0) throw new IllegalArgumentException("side < 0: " + side);
    }

    @Override
    public Shape grow(int by) {
        return new Square(Math.max(0, side + by));
    }
}
