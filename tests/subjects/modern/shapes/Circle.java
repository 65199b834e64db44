package shapes;

public record Circle(int radius) implements Shape {
    public Circle {
        if (radius < 0) throw new IllegalArgumentException("radius < 0: " + radius);
    }

    @Override
    public Shape grow(int by) {
        return new Circle(Math.max(0, radius + by));
    }
}
