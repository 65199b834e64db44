package clk;

/** Reads no clock: its class file is left alone. */
public class NoClock {
    public static long twice(long x) {
        return 2 * x;
    }
}
