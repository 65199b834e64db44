package shapes;

public record Rect(int width, int height) implements Shape {
    public Rect {
        if (width < 0 || height < 0) throw new IllegalArgumentException("negative side");
    }

    @Override
    public Shape grow(int by) {
        return new Rect(Math.max(0, width + by), Math.max(0, height + by));
    }
}
