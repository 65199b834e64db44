package suite;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;

import java.util.Optional;
import java.util.function.Function;

/**
 * A booking over java.time and java.math: every parameter type is a JDK type that is not under
 * test and has no public constructor taking literals only (LocalDate, RoundingMode), or is an
 * interface (List, Function), or an Optional. jforge must reach each method without being told
 * about those types, and write no test whose subject is one of them.
 */
public final class Booking {
    private final LocalDate from;
    private final LocalDate to;
    private BigDecimal nightly = BigDecimal.ZERO;

    public Booking(LocalDate from, LocalDate to) {
        if (from == null || to == null || to.isBefore(from)) {
            throw new IllegalArgumentException("bad range");
        }
        this.from = from;
        this.to = to;
    }

    public long nights() {
        return ChronoUnit.DAYS.between(from, to);
    }

    public boolean covers(LocalDate day) {
        return !day.isBefore(from) && day.isBefore(to);
    }

    public void price(BigDecimal perNight) {
        if (perNight.signum() < 0) {
            throw new IllegalArgumentException("negative price");
        }
        nightly = perNight;
    }

    public String total(RoundingMode mode) {
        return nightly.multiply(BigDecimal.valueOf(nights())).setScale(0, mode).toPlainString();
    }

    public int guests(List<String> names) {
        int n = 0;
        for (String s : names) {
            if (s != null && !s.isEmpty()) {
                n++;
            }
        }
        return n;
    }

    public String label(Function<String, String> style) {
        return style.apply(from + ".." + to);
    }

    public String note(Optional<String> text) {
        return text.orElse("none");
    }

    /**
     * A rule nobody implements: no value can be made for it, only null (two abstract
     * methods: no lambda either; a generic one: no anonymous subclass jforge writes).
     */
    public interface Rule {
        boolean allows(LocalDate day);

        String name();

        <T> T pick(T a, T b);
    }

    public boolean check(Rule rule) {
        return rule != null && rule.allows(from);
    }

    public int words(CharSequence text) {
        return text.toString().trim().isEmpty() ? 0 : text.toString().trim().split(" +").length;
    }

    /** Legacy dates: the clock (new Date(), Calendar.getInstance()) must not be their source. */
    public boolean startsAfter(java.util.Date day) {
        return from.toEpochDay() * 86_400_000L > day.getTime();
    }

    public int weekday(java.util.Calendar day) {
        return day.get(java.util.Calendar.DAY_OF_WEEK);
    }

    public int overlap(Booking other) {
        LocalDate a = from.isAfter(other.from) ? from : other.from;
        LocalDate b = to.isBefore(other.to) ? to : other.to;
        return b.isAfter(a) ? (int) ChronoUnit.DAYS.between(a, b) : 0;
    }
}
