package org.acme.app;
import org.acme.core.Range;
public final class Bookings {
  private int booked;
  public boolean book(Range r, int day) { if (r.contains(day)) { booked++; return true; } return false; }
  public int booked() { return booked; }
}
