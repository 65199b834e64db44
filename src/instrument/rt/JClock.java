package jforge.rt;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Calendar;
import java.util.Date;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The clock of code rewritten by jforge: every clock read of the user's code
 * ({@code System.currentTimeMillis}, {@code System.nanoTime}, {@code Clock.systemUTC},
 * {@code Instant.now}, {@code new Date()}, the {@code java.time} {@code now()} family...) is
 * retargeted to a static method here with the same descriptor. Why: a value derived from the
 * clock (elapsed time, today's date) must differ between jforge's two runs of a sequence so
 * that it is never asserted; the real clock gives 0 ms elapsed in both runs on a fast machine
 * and a few ms on a loaded one.
 *
 * <p>The mode is the system property {@code jforge.clock}:
 * <ul>
 * <li>unset: the real clock (JDK behaviour; instrumented classes measured by {@code jforge
 * coverage} or by the final check's ordinary runs);</li>
 * <li>{@code fixed}: the worker's first run, a fast machine. Starts at 2020-01-01T00:00:00Z and
 * advances one microsecond per read (elapsed milliseconds are 0, as on a fast machine, and
 * a loop waiting for a second still ends after a million reads); {@link #reset()} before each
 * sequence, so a sequence sees the same times in any worker whatever ran before (generation
 * stays deterministic per seed);</li>
 * <li>{@code shifted}: the second opinion. Starts 11 to 41 years later at a random instant
 * whose calendar fields differ from the fixed start's (see {@link #shiftedStart()}) and
 * advances by a random step of 1 s to 3 h per read;</li>
 * <li>{@code slow}: the final check's slow-clock run. Starts at the real time and advances by
 * a random step of 1 s to 3 h per read: a very slow machine, on another day.</li>
 * </ul>
 * {@link #reads()} counts the reads since the last reset (the worker reports it per sequence).
 * Compiles with {@code --release 8}, JDK only.
 */
public final class JClock {
    private static final int REAL = 0;
    private static final int FIXED = 1;
    private static final int SHIFTED = 2;
    private static final int SLOW = 3;
    private static final long MS = 1_000_000L;
    private static final long FIXED_STEP = 1_000L;
    /** 2020-01-01T00:00:00Z in ns. */
    private static final long FIXED_START = 1_577_836_800_000L * MS;
    private static final long YEAR = 365L * 24 * 3600 * 1000 * MS;
    private static final long MIN_STEP = 1000 * MS;
    private static final long MAX_STEP = 3L * 3600 * 1000 * MS;

    private static final int MODE = mode(System.getProperty("jforge.clock", ""));
    private static final Random RANDOM = new Random();
    private static final long START = start();
    /** The virtual time: ns since the epoch. */
    private static final AtomicLong NOW = new AtomicLong(START);
    private static final AtomicInteger READS = new AtomicInteger();

    private JClock() {}

    private static int mode(String m) {
        switch (m) {
            case "fixed":
                return FIXED;
            case "shifted":
                return SHIFTED;
            case "slow":
                return SLOW;
            default:
                return REAL;
        }
    }

    private static long start() {
        switch (MODE) {
            case SHIFTED:
                return shiftedStart();
            case SLOW:
                return System.currentTimeMillis() * MS;
            default:
                return FIXED_START;
        }
    }

    /**
     * A random instant 11 to 41 years after the fixed start whose calendar fields in this
     * JVM's zone all differ from the fixed start's in any zone (2019-12-31 or 2020-01-01, a
     * Tuesday or Wednesday, at a whole or quarter hour): month 2 to 11, day 2 to 28, not a
     * Tuesday or Wednesday, minute not a multiple of 15, second not 0. A value derived from
     * the date at any granularity then differs for sure, not with a chance of 1 in 7 or 12.
     */
    private static long shiftedStart() {
        ZoneId zone = ZoneId.systemDefault();
        long t = FIXED_START + 11 * YEAR;
        for (int i = 0; i < 10_000; i++) {
            t = FIXED_START + 11 * YEAR + (long) (RANDOM.nextDouble() * 30 * YEAR);
            ZonedDateTime z = Instant.ofEpochSecond(t / 1_000_000_000L).atZone(zone);
            int dow = z.getDayOfWeek().getValue(); // 2 Tuesday, 3 Wednesday
            if (z.getMonthValue() >= 2 && z.getMonthValue() <= 11 && z.getDayOfMonth() >= 2
                    && z.getDayOfMonth() <= 28 && dow != 2 && dow != 3 && z.getMinute() % 15 != 0
                    && z.getSecond() != 0) {
                return t;
            }
        }
        return t;
    }

    /** Starts the clock again (a new sequence) and clears the read count. */
    public static void reset() {
        NOW.set(START);
        READS.set(0);
    }

    /** Clock reads since the last {@link #reset()}. */
    public static int reads() {
        return READS.get();
    }

    /** True when the real clock is used (no mode set). */
    public static boolean real() {
        return MODE == REAL;
    }

    /** One read: advances the virtual time and returns it (ns since the epoch). */
    private static long tick() {
        READS.incrementAndGet();
        long step = MODE == FIXED ? FIXED_STEP : MIN_STEP + (long) (RANDOM.nextDouble() * (MAX_STEP - MIN_STEP));
        return NOW.addAndGet(step);
    }

    public static long currentTimeMillis() {
        if (MODE == REAL) {
            return System.currentTimeMillis();
        }
        return Math.floorDiv(tick(), MS);
    }

    public static long nanoTime() {
        if (MODE == REAL) {
            return System.nanoTime();
        }
        // nanoTime has an arbitrary origin: the virtual time since the start.
        return tick() - START + 1_000_000_000L;
    }

    private static Instant instant() {
        long t = tick();
        return Instant.ofEpochSecond(Math.floorDiv(t, 1_000_000_000L), Math.floorMod(t, 1_000_000_000L));
    }

    /** A clock of the given zone reading the virtual time. */
    static final class Virtual extends Clock {
        private final ZoneId zone;

        Virtual(ZoneId zone) {
            this.zone = zone;
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId z) {
            return z.equals(zone) ? this : new Virtual(z);
        }

        @Override
        public Instant instant() {
            return JClock.instant();
        }

        @Override
        public long millis() {
            return JClock.currentTimeMillis();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Virtual && ((Virtual) o).zone.equals(zone);
        }

        @Override
        public int hashCode() {
            return zone.hashCode() + 1;
        }

        @Override
        public String toString() {
            return "SystemClock[" + zone + "]"; // as the JDK's
        }
    }

    private static Clock in(ZoneId zone) {
        if (MODE == REAL) {
            return Clock.system(zone);
        }
        return new Virtual(zone);
    }

    private static Clock here() {
        return in(ZoneId.systemDefault());
    }

    // ---- the retargeted methods: Owner_name with the owner's descriptor

    public static Clock Clock_systemUTC() {
        return in(ZoneOffset.UTC);
    }

    public static Clock Clock_systemDefaultZone() {
        return here();
    }

    public static Instant Instant_now() {
        return MODE == REAL ? Instant.now() : instant();
    }

    public static Date newDate() {
        return new Date(currentTimeMillis());
    }

    public static LocalDate LocalDate_now() {
        return LocalDate.now(here());
    }

    public static LocalDate LocalDate_now(ZoneId z) {
        return LocalDate.now(in(z));
    }

    public static LocalDateTime LocalDateTime_now() {
        return LocalDateTime.now(here());
    }

    public static LocalDateTime LocalDateTime_now(ZoneId z) {
        return LocalDateTime.now(in(z));
    }

    public static LocalTime LocalTime_now() {
        return LocalTime.now(here());
    }

    public static LocalTime LocalTime_now(ZoneId z) {
        return LocalTime.now(in(z));
    }

    public static ZonedDateTime ZonedDateTime_now() {
        return ZonedDateTime.now(here());
    }

    public static ZonedDateTime ZonedDateTime_now(ZoneId z) {
        return ZonedDateTime.now(in(z));
    }

    public static OffsetDateTime OffsetDateTime_now() {
        return OffsetDateTime.now(here());
    }

    public static OffsetDateTime OffsetDateTime_now(ZoneId z) {
        return OffsetDateTime.now(in(z));
    }

    public static OffsetTime OffsetTime_now() {
        return OffsetTime.now(here());
    }

    public static OffsetTime OffsetTime_now(ZoneId z) {
        return OffsetTime.now(in(z));
    }

    public static Year Year_now() {
        return Year.now(here());
    }

    public static Year Year_now(ZoneId z) {
        return Year.now(in(z));
    }

    public static YearMonth YearMonth_now() {
        return YearMonth.now(here());
    }

    public static YearMonth YearMonth_now(ZoneId z) {
        return YearMonth.now(in(z));
    }

    public static MonthDay MonthDay_now() {
        return MonthDay.now(here());
    }

    public static MonthDay MonthDay_now(ZoneId z) {
        return MonthDay.now(in(z));
    }

    private static Calendar timed(Calendar c) {
        if (MODE != REAL) {
            c.setTimeInMillis(currentTimeMillis());
        }
        return c;
    }

    public static Calendar Calendar_getInstance() {
        return timed(Calendar.getInstance());
    }

    public static Calendar Calendar_getInstance(TimeZone z) {
        return timed(Calendar.getInstance(z));
    }

    public static Calendar Calendar_getInstance(Locale l) {
        return timed(Calendar.getInstance(l));
    }

    public static Calendar Calendar_getInstance(TimeZone z, Locale l) {
        return timed(Calendar.getInstance(z, l));
    }
}
