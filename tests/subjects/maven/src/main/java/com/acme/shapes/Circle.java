package com.acme.shapes;

/** A circle with an integer radius. */
public class Circle {
    private final int radius;

    public Circle(int radius) {
        if (radius < 0) throw new IllegalArgumentException("negative radius: " + radius);
        this.radius = radius;
    }

    public int getRadius() { return radius; }

    public double area() { return Math.PI * radius * radius; }

    public Circle scale(int factor) { return new Circle(radius * factor); }

    public boolean contains(Square s) { return s.getSide() * s.getSide() <= 2 * radius * radius; }

    @Override public boolean equals(Object o) {
        return o instanceof Circle && ((Circle) o).radius == radius;
    }

    @Override public int hashCode() { return radius; }

    @Override public String toString() { return "Circle(" + radius + ")"; }
}
