package com.acme.util;

/** A bounded counter. */
public class Counter {
    private final int limit;
    private int count;

    public Counter(int limit) { this.limit = limit; }

    public boolean increment() {
        if (count >= limit) return false;
        count++;
        return true;
    }

    public void reset() { count = 0; }

    public int get() { return count; }

    public boolean isFull() { return count >= limit; }
}
