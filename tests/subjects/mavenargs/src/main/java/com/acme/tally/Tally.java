package com.acme.tally;

/** A counter that never goes below zero. */
public class Tally {
    private int count;

    public void add(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative: " + n);
        }
        count += n;
    }

    public boolean take() {
        if (count == 0) {
            return false;
        }
        count--;
        return true;
    }

    /** A switch expression: Java 14 and later. */
    public String size() {
        return switch (count) {
            case 0 -> "none";
            case 1 -> "one";
            default -> "many";
        };
    }

    public int count() {
        return count;
    }
}
