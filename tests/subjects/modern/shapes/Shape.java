package shapes;

/** A sealed hierarchy of records: what Java 17+ code bases look like. */
public sealed interface Shape permits Circle, Square, Rect {
    /** The shape grown by {@code by} in every dimension (negative shrinks; never below 0). */
    Shape grow(int by);
}
