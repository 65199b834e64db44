package quality;

/**
 * An interface an enum implements: `ordinal()` called through it is `Enum.ordinal()`, the
 * declaration order, whatever the static type says (not worth asserting).
 */
public interface Ranked {
    int ordinal();

    String label();
}
