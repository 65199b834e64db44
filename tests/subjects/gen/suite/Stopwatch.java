package suite;

import java.lang.management.ManagementFactory;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.Year;
import java.util.Date;

/**
 * A stop watch in the style of commons-lang3's StopWatch, plus today's date at day, month and
 * year granularity: every value derived from the clock (elapsed time, its formatting, dates,
 * nanoTime differences) differs from run to run, and a test asserting one fails on a loaded
 * machine or another day. State queries and the messages of illegal calls do not depend on
 * the clock and are worth asserting.
 */
public class Stopwatch {
    private final String name;
    private int state; // 0 unstarted, 1 running, 2 stopped, 3 suspended
    private long startMillis;
    private long startNanos;
    private long stopMillis;
    private long splitMillis = -1;

    public Stopwatch(String name) {
        this.name = name;
    }

    public String getName() {
        return "name:" + name;
    }

    public void start() {
        if (state == 1) {
            throw new IllegalStateException("Stopwatch already started.");
        }
        if (state == 2) {
            throw new IllegalStateException("Stopwatch must be reset before being restarted.");
        }
        startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        state = 1;
    }

    public void stop() {
        if (state != 1 && state != 3) {
            throw new IllegalStateException("Stopwatch is not running.");
        }
        stopMillis = System.currentTimeMillis();
        state = 2;
    }

    public void reset() {
        state = 0;
        splitMillis = -1;
    }

    public void split() {
        if (state != 1) {
            throw new IllegalStateException("Stopwatch is not running.");
        }
        splitMillis = System.currentTimeMillis();
    }

    public long getSplitTime() {
        if (splitMillis < 0) {
            throw new IllegalStateException("Stopwatch must be split to get the split time.");
        }
        return splitMillis - startMillis;
    }

    public long getTime() {
        if (state == 0) {
            return 0;
        }
        if (state == 2) {
            return stopMillis - startMillis;
        }
        return System.currentTimeMillis() - startMillis;
    }

    public long getNanoTime() {
        if (state != 1) {
            return 0;
        }
        return System.nanoTime() - startNanos;
    }

    /** Elapsed time as "HH:mm:ss.SSS". */
    public String formatTime() {
        long t = getTime();
        return String.format("%02d:%02d:%02d.%03d", t / 3_600_000, t / 60_000 % 60, t / 1000 % 60, t % 1000);
    }

    public boolean isStarted() {
        return state == 1 || state == 3;
    }

    public boolean isStopped() {
        return state == 2;
    }

    public String today() {
        return "today:" + LocalDate.now();
    }

    public int dayOfMonth() {
        return LocalDate.now().getDayOfMonth();
    }

    public int month() {
        return LocalDate.now().getMonthValue();
    }

    public int year() {
        return Year.now().getValue();
    }

    public String created() {
        Date d = new Date();
        return "created:" + (d.getTime() / 86_400_000L);
    }

    /**
     * Running for a second or more, in the year the JVM started (read from the JVM, not from
     * the clock): false on a fast machine, false years away, true only on a slow machine
     * today. Only jforge's slow-clock check sees it change.
     */
    public boolean lateThisYear() {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        int startYear = java.time.Instant.ofEpochMilli(jvmStart).atZone(ZoneOffset.UTC).getYear();
        return Year.now(ZoneOffset.UTC).getValue() == startYear && getTime() >= 1000;
    }

    @Override
    public String toString() {
        return "Stopwatch " + name + (isStarted() ? " running" : " idle");
    }
}
