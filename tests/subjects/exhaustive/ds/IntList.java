package ds;

import java.util.Arrays;

/** A growable list of ints whose get checks its index: a call with a bad index throws, as designed. */
public class IntList {
    private int[] elems = new int[2];
    private int size;

    public void add(int x) {
        if (size == elems.length) {
            elems = Arrays.copyOf(elems, size * 2);
        }
        elems[size++] = x;
    }

    public int get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
        return elems[i];
    }

    public int size() {
        return size;
    }
}
