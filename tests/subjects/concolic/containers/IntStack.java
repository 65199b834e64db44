package containers;

/**
 * An unbounded stack of ints backed by a growing array: our version of the IntStack of the
 * Symstra/Rostra benchmarks (Xie, Marinov, Notkin), written from its well-known behaviour
 * (push, pop, isEmpty, equals), about the same branch count.
 */
public class IntStack {
    private int[] store;
    private int size;
    private static final int INITIAL_CAPACITY = 2;

    public IntStack() {
        store = new int[INITIAL_CAPACITY];
        size = 0;
    }

    public void push(int value) {
        if (size == store.length) {
            int[] grown = new int[store.length * 2];
            System.arraycopy(store, 0, grown, 0, size);
            store = grown;
        }
        store[size++] = value;
    }

    public int pop() {
        if (size == 0) {
            throw new IllegalStateException("empty stack");
        }
        return store[--size];
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean equals(Object other) {
        if (!(other instanceof IntStack)) {
            return false;
        }
        IntStack s = (IntStack) other;
        if (size != s.size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (store[i] != s.store[i]) {
                return false;
            }
        }
        return true;
    }

    public int hashCode() {
        return size;
    }
}
