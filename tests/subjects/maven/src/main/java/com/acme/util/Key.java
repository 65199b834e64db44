package com.acme.util;

/** A key whose equals is not reflexive for empty names: a seeded bug jforge reports. */
public class Key {
    private final String name;

    public Key(String name) { this.name = name; }

    public String getName() { return name; }

    @Override public boolean equals(Object o) {
        return o instanceof Key && name != null && !name.isEmpty() && name.equals(((Key) o).name);
    }

    @Override public int hashCode() { return name == null ? 0 : name.hashCode(); }
}
