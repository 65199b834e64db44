package suite;

import java.time.LocalDate;
import java.util.TimeZone;

/**
 * Results that depend on the machine's defaults (time zone, today's date, locale, default
 * charset): a test asserting them passes where it was written and fails on a colleague's
 * machine. Each result is tagged so that a test can look for it in the written suite.
 */
public class Locales {
    public Locales() {}

    public String zone() { return "zone:" + TimeZone.getDefault().getID(); }

    public String today() { return "today:" + LocalDate.now(); }

    public String price(double d) { return "price:" + String.format("%.2f", d); }

    public String upper(String s) { return "upper:" + ("title" + s).toUpperCase(); }

    public String bytes() { return "bytes:" + "\u00e9".getBytes().length; }

    public String stable(int i) { return "stable:" + (i * 2); }
}
