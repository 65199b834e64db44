package gs;

import java.util.Locale;
import java.util.TimeZone;

/**
 * A counter whose other methods change what the whole JVM shares: a test calling them would
 * change every test its build runs after it (a closed System.out silences the build's report).
 */
public class JvmWide {
    private int count;

    public int increment(int by) {
        if (by < 0) {
            throw new IllegalArgumentException("negative");
        }
        count += by;
        return count;
    }

    public int count() {
        return count;
    }

    public boolean isBig() {
        return count > 10;
    }

    /** Closes the console (a printer on System.out closed with it). */
    public void closeConsole() {
        System.out.close();
    }

    /** Closes System.err and throws: the change is made all the same. */
    public void closeErrorsAndFail() {
        System.err.close();
        throw new IllegalStateException("closed");
    }

    public void remember(String value) {
        System.setProperty("gs.remembered", value == null ? "none" : value);
    }

    public void forget() {
        System.clearProperty("java.io.tmpdir");
    }

    public void speakFrench() {
        Locale.setDefault(Locale.FRANCE);
    }

    public void moveToTokyo() {
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
    }

    /** Reads the JVM's state: the same in every test when nothing changed it. */
    public String describe() {
        return count + " " + Locale.getDefault() + " " + System.getProperty("gs.remembered");
    }
}
