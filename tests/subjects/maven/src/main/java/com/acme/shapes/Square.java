package com.acme.shapes;

/** A square; {@link Layer} groups squares. */
public class Square {
    private final int side;

    public Square(int side) { this.side = Math.abs(side); }

    public int getSide() { return side; }

    public int area() { return side * side; }

    public Circle circumscribed() { return new Circle(side); }

    /** A named group of squares (a nested class: its tests are Square_LayerRegressionTest). */
    public static class Layer {
        private final java.util.List<Square> squares = new java.util.ArrayList<>();

        public Layer add(Square s) {
            squares.add(s);
            return this;
        }

        public int size() { return squares.size(); }

        public int totalArea() {
            int t = 0;
            for (Square s : squares) t += s.area();
            return t;
        }
    }
}
