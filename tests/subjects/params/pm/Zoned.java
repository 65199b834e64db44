package pm;

import java.util.TimeZone;

/** here() completes only in a usual time zone: a fresh JVM with UTC+14 or UTC-12 refuses it. */
public class Zoned {
    public static String here() {
        int hours = TimeZone.getDefault().getRawOffset() / 3_600_000;
        if (hours >= 14 || hours <= -12) {
            throw new IllegalStateException("not at home: UTC" + hours);
        }
        return "home";
    }
}
