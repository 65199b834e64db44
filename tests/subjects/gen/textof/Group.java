package textof;

/** What a pattern makes: an interface that declares no toString. */
public interface Group {
    int size();
}
