package observe;

/**
 * A buffer whose state shows only through methods not named like getters, as Commons Codec's
 * Base64 shows what encode wrote through avail(): avail() reads fields and writes none (an
 * observer by what it does); take() reads and writes (no observer: asserting it would empty
 * the buffer).
 */
public class Buffer {
    private int pos;
    private int readPos;

    public void put(int n) {
        if (n > 0 && n < 100) {
            pos += n;
        }
    }

    public int avail() {
        return pos - readPos;
    }

    public int take() {
        int a = pos - readPos;
        readPos = pos;
        return a;
    }
}
