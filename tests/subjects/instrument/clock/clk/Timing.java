package clk;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Date;
import java.util.TimeZone;

/**
 * Every kind of clock read jforge retargets, each result a plain number so that a test can
 * tell the fixed clock (2020-01-01T00:00:00Z, one microsecond per read) from the real one.
 */
public class Timing {
    public static long millis() {
        return System.currentTimeMillis();
    }

    /** Two nanoTime reads: one microsecond apart on the fixed clock. */
    public static long nanos() {
        long a = System.nanoTime();
        long b = System.nanoTime();
        return b - a;
    }

    public static int year() {
        return LocalDate.now(ZoneOffset.UTC).getYear();
    }

    public static int yearHere() {
        return Year.now().getValue() + LocalDateTime.now().getYear() - LocalDate.now().getYear();
    }

    public static long instant() {
        return Instant.now().toEpochMilli();
    }

    public static long clock() {
        return Clock.systemUTC().millis() + Clock.systemDefaultZone().millis() * 0;
    }

    public static long date() {
        return new Date().getTime();
    }

    /** new Date() as an argument of another constructor and in a conditional: frames around it. */
    public static long dateInExpression(boolean b) {
        StringBuilder sb = new StringBuilder(String.valueOf(b ? new Date().getTime() : -1L));
        Object d = b ? new Date() : null;
        return d == null ? -1 : Long.parseLong(sb.toString());
    }

    /** Not a clock read: new Date(long) keeps its constructor. */
    public static long dateOf(long t) {
        return new Date(t).getTime();
    }

    public static int calendarYear() {
        return Calendar.getInstance(TimeZone.getTimeZone("UTC")).get(Calendar.YEAR);
    }
}
