package org.acme;

public final class Counter {
    private int n;
    public void inc() { n++; }
    public int get() { return n; }
}
