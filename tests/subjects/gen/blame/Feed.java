package blame;

/**
 * An iterator over comma-separated parts, built from a text or built empty and set up later
 * by setText, as its documentation says (like commons-collections' TransformIterator() before
 * setIterator). hasNext or next on Feed() before setText throws a NullPointerException on its
 * own field, which both Feed(String) and setText set: a state precondition the class
 * documents, set aside as "state-not-initialized", no error test.
 */
public class Feed {
    private String[] parts;
    private int pos;

    /** An empty feed: call setText before hasNext or next. */
    public Feed() {
    }

    public Feed(String text) {
        setText(text);
    }

    /** Sets the text to read (through a private helper: the setter is found through it). */
    public void setText(String text) {
        split(text);
    }

    private void split(String text) {
        parts = text.split(",");
        pos = 0;
    }

    public boolean hasNext() {
        return pos < parts.length;
    }

    public String next() {
        return parts[pos++];
    }
}
