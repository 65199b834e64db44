package ds;

/** A bounded stack of ints over an array. */
public class IntStack {
    private int[] items;
    private int size;

    public IntStack(int capacity) {
        if (capacity < 0) throw new IllegalArgumentException("negative capacity: " + capacity);
        items = new int[capacity];
    }

    public IntStack() { this(8); }

    public void push(int x) {
        if (size == items.length) {
            int[] bigger = new int[items.length * 2 + 1];
            System.arraycopy(items, 0, bigger, 0, size);
            items = bigger;
        }
        items[size++] = x;
    }

    public int pop() {
        if (size == 0) throw new IllegalStateException("empty stack");
        return items[--size];
    }

    public int peek() {
        if (size == 0) throw new IllegalStateException("empty stack");
        return items[size - 1];
    }

    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }

    @Override public boolean equals(Object o) {
        if (!(o instanceof IntStack)) return false;
        IntStack s = (IntStack) o;
        if (s.size != size) return false;
        for (int i = 0; i < size; i++) if (items[i] != s.items[i]) return false;
        return true;
    }

    @Override public int hashCode() {
        int h = 1;
        for (int i = 0; i < size; i++) h = 31 * h + items[i];
        return h;
    }

    @Override public String toString() {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < size; i++) { if (i > 0) b.append(", "); b.append(items[i]); }
        return b.append("]").toString();
    }
}
