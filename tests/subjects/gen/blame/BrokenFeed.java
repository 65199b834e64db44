package blame;

/**
 * Feed's shape with a bug: setText keeps the text but nothing ever splits it, so hasNext
 * throws a NullPointerException on a field no constructor and no public method sets. That is
 * the class's own defect (no setter the caller forgot): one error test.
 */
public class BrokenFeed {
    private String text;
    private String[] parts;
    private int pos;

    public BrokenFeed() {
    }

    public BrokenFeed(String text) {
        setText(text);
    }

    public void setText(String text) {
        this.text = text;
        pos = 0;
    }

    public String text() {
        return text;
    }

    public boolean hasNext() {
        return pos < parts.length;
    }
}
