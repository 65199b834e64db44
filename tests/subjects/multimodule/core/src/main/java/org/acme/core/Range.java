package org.acme.core;
import org.apache.commons.lang3.tuple.Pair;
public final class Range {
  private final int lo, hi;
  public Range(int lo, int hi) { if (lo > hi) throw new IllegalArgumentException("lo > hi"); this.lo = lo; this.hi = hi; }
  public static Range of(Pair<Integer, Integer> p) { return new Range(p.getLeft(), p.getRight()); }
  public boolean contains(int x) { return lo <= x && x <= hi; }
  public int length() { return hi - lo; }
}
