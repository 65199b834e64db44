package bk;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.List;

/**
 * A hotel booking, written the way a new user's class looks: the constructor needs two
 * different dates in order, an amount and a list of guests, and refuses anything else.
 */
public class Booking {
    private final LocalDate from;
    private final LocalDate to;
    private final BigDecimal nightly;
    private final List<String> guests;
    private String note = "";

    public Booking(LocalDate from, LocalDate to, BigDecimal nightly, List<String> guests) {
        if (from == null || to == null || nightly == null || guests == null) {
            throw new IllegalArgumentException("all fields are required");
        }
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("the stay must end after it starts");
        }
        if (nightly.signum() <= 0) {
            throw new IllegalArgumentException("the nightly rate must be positive");
        }
        if (guests.isEmpty()) {
            throw new IllegalArgumentException("a booking needs a guest");
        }
        this.from = from;
        this.to = to;
        this.nightly = nightly;
        this.guests = new ArrayList<>(guests);
    }

    public int nights() {
        return (int) (to.toEpochDay() - from.toEpochDay());
    }

    public Period length() {
        return Period.between(from, to);
    }

    public BigDecimal total() {
        BigDecimal t = nightly.multiply(BigDecimal.valueOf(nights()));
        if (nights() >= 7) {
            t = t.multiply(new BigDecimal("0.90"));
        }
        return t.setScale(2, RoundingMode.HALF_UP);
    }

    public BigDecimal perGuest() {
        return total().divide(BigDecimal.valueOf(guests.size()), 2, RoundingMode.HALF_UP);
    }

    public boolean overlaps(Booking other) {
        if (other == null) {
            return false;
        }
        return from.isBefore(other.to) && other.from.isBefore(to);
    }

    public boolean contains(LocalDate day) {
        if (day == null) {
            throw new IllegalArgumentException("no day");
        }
        return !day.isBefore(from) && day.isBefore(to);
    }

    public int weekendNights() {
        int n = 0;
        for (LocalDate d = from; d.isBefore(to); d = d.plusDays(1)) {
            DayOfWeek w = d.getDayOfWeek();
            if (w == DayOfWeek.FRIDAY || w == DayOfWeek.SATURDAY) {
                n++;
            }
        }
        return n;
    }

    public Booking extend(Period p) {
        if (p == null || p.isNegative() || p.isZero()) {
            throw new IllegalArgumentException("extend by a positive period");
        }
        return new Booking(from, to.plus(p), nightly, guests);
    }

    public Booking withGuest(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a guest needs a name");
        }
        if (guests.contains(name)) {
            return this;
        }
        List<String> g = new ArrayList<>(guests);
        g.add(name);
        return new Booking(from, to, nightly, g);
    }

    public boolean hasGuest(String name) {
        return guests.contains(name);
    }

    public String leadGuest() {
        return guests.get(0);
    }

    public void setNote(String note) {
        if (note != null && note.length() > 40) {
            throw new IllegalArgumentException("note too long");
        }
        this.note = note == null ? "" : note.trim();
    }

    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(leadGuest());
        if (guests.size() > 1) {
            sb.append(" +").append(guests.size() - 1);
        }
        sb.append(": ").append(from).append(" to ").append(to);
        if (!note.isEmpty()) {
            sb.append(" (").append(note).append(')');
        }
        return sb.toString();
    }
}
