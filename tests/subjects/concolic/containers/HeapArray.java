package containers;

/**
 * A max-priority queue of ints in an array (insert, extractMax, with sift up and sift
 * down; full and empty checks): our version of the HeapArray of the Rostra/Symstra
 * benchmarks, written from its well-known behaviour.
 */
public class HeapArray {
    private int size;
    private final int[] array;

    public HeapArray() {
        array = new int[4];
    }

    public boolean insert(int x) {
        if (size == array.length) {
            return false;
        }
        int i = size++;
        array[i] = x;
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (array[parent] >= array[i]) {
                break;
            }
            int t = array[parent];
            array[parent] = array[i];
            array[i] = t;
            i = parent;
        }
        return true;
    }

    public int extractMax() {
        if (size == 0) {
            throw new IllegalStateException("empty heap");
        }
        int max = array[0];
        array[0] = array[--size];
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            int r = l + 1;
            int largest = i;
            if (l < size && array[l] > array[largest]) {
                largest = l;
            }
            if (r < size && array[r] > array[largest]) {
                largest = r;
            }
            if (largest == i) {
                break;
            }
            int t = array[i];
            array[i] = array[largest];
            array[largest] = t;
            i = largest;
        }
        return max;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean isFull() {
        return size == array.length;
    }
}
