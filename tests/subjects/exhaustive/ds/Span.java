package ds;

import java.time.LocalDate;

/** A span of days built only from two java.time.LocalDate values, a type exhaustive has no domain for. */
public class Span {
    private final LocalDate from;
    private final LocalDate to;

    public Span(LocalDate from, LocalDate to) {
        this.from = from;
        this.to = to;
    }

    public boolean contains(LocalDate d) {
        return !d.isBefore(from) && !d.isAfter(to);
    }
}
