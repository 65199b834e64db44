package hostile;

import java.util.ArrayList;
import java.util.List;

/**
 * Sizes taken from int arguments, with 2^30 in the class's constant pool (as guava's
 * MAX_POWER_OF_TWO): the constructor only stores its capacity and the first add allocates
 * the table (as java.util.HashMap does), so the call that runs out of memory is not the one
 * that took the size; withCapacity passes its argument to new ArrayList<>(n); tier compares
 * its argument against 5000, larger than the small sizes an allocating operation gets, so
 * only a run that keeps the values its comparisons log covers its second branch.
 */
public class Capacity {
    public static final int MAX_CAPACITY = 1 << 30;

    private final int capacity;
    private long[] table;
    private int size;

    public Capacity(int capacity) {
        if (capacity < 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds v; allocates the table of `capacity` longs at the first call. */
    public boolean add(long v) {
        if (table == null) {
            table = new long[capacity];
        }
        if (size == table.length) {
            return false;
        }
        table[size++] = v;
        return true;
    }

    public int size() { return size; }

    /** An empty list with room for n elements. */
    public static List<String> withCapacity(int n) {
        return new ArrayList<>(n);
    }

    /** 2 for n of at least 5000 (an ArrayList of that capacity made first), else 1. */
    public static int tier(int n) {
        List<String> room = new ArrayList<>(n);
        if (n >= 5000) {
            return 2 + room.size();
        }
        return 1 + room.size();
    }
}
