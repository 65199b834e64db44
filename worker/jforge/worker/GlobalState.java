package jforge.worker;

import java.io.FilterInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;

/**
 * State the whole JVM shares that a call under test may change: the console streams
 * (System.in/out/err closed), the system properties (System.setProperty, clearProperty) and the
 * default locale and time zone. Why watch it: a test that makes such a call changes the JVM of
 * every test its build runs after it (a closed System.out silences Surefire's report; a property
 * or a default changes what later tests compute). gen's workers (-Djforge.console=quiet) report
 * such a call as jforge.ChangesGlobalState, never a test, and put the state back; the other
 * workers only replace a closed console stream.
 *
 * <p>Cost per call: two counter reads, three reads of the default locales and one of the default
 * time zone's id (the zone itself is cloned by TimeZone.getDefault()).
 */
final class GlobalState {
    private GlobalState() {}

    static final String CHANGES_GLOBAL_STATE = "jforge.ChangesGlobalState";

    /** Closes of the console streams the worker installed. */
    static volatile long consoleCloses;

    private static WatchedProperties props;
    private static Properties snapshot;
    private static Locale locale;
    private static Locale localeFormat;
    private static Locale localeDisplay;
    private static TimeZone zone;

    /** System properties that count their changes. */
    static final class WatchedProperties extends Properties {
        private static final long serialVersionUID = 1L;
        volatile long changes;

        @Override
        public synchronized Object put(Object k, Object v) {
            changes++;
            return super.put(k, v);
        }

        @Override
        public synchronized Object remove(Object k) {
            changes++;
            return super.remove(k);
        }

        @Override
        public synchronized void clear() {
            changes++;
            super.clear();
        }
    }

    /** System.in of a worker: empty, its closes counted. */
    static final class ConsoleIn extends FilterInputStream {
        ConsoleIn() {
            super(InputStream.nullInputStream());
        }

        @Override
        public void close() {
            consoleCloses++;
        }
    }

    /** Silences the console and starts watching; called once, before any code under test. */
    static void install() {
        installConsole();
        Properties cur = System.getProperties();
        snapshot = new Properties();
        for (Map.Entry<Object, Object> e : cur.entrySet()) {
            snapshot.put(e.getKey(), e.getValue());
        }
        props = new WatchedProperties();
        props.putAll(snapshot);
        props.changes = 0;
        System.setProperties(props);
        rememberDefaults();
    }

    private static void installConsole() {
        PrintStream sink = new PrintStream(new OutputSink());
        System.setOut(sink);
        System.setErr(sink);
        System.setIn(new ConsoleIn());
    }

    private static void rememberDefaults() {
        locale = Locale.getDefault();
        localeFormat = Locale.getDefault(Locale.Category.FORMAT);
        localeDisplay = Locale.getDefault(Locale.Category.DISPLAY);
        zone = TimeZone.getDefault();
    }

    /** Closes so far. */
    static long closes() {
        return consoleCloses;
    }

    /** Property changes so far. */
    static long propertyChanges() {
        return props == null ? 0 : props.changes;
    }

    /**
     * After a call: with {@code watch} (gen's workers), what it changed since the marks taken
     * before it, or null, the state put back; otherwise only a closed console stream is
     * replaced (so that what is printed later is still counted) and null returned: the other
     * generators keep the JVM as the calls left it, as a test run would.
     */
    static String after(boolean watch, long closesBefore, long propertyChangesBefore) {
        if (watch) {
            return changedSince(closesBefore, propertyChangesBefore);
        }
        if (consoleCloses != closesBefore) {
            installConsole();
            consoleCloses = closesBefore;
        }
        return null;
    }

    /**
     * What a call changed since the marks taken before it, or null; the state is put back
     * before this returns.
     */
    private static String changedSince(long closesBefore, long propertyChangesBefore) {
        if (props == null) {
            return null;
        }
        String what = null;
        if (consoleCloses != closesBefore) {
            what = "closed System.in, System.out or System.err";
            installConsole();
            consoleCloses = closesBefore;
        }
        if (props.changes != propertyChangesBefore || System.getProperties() != props) {
            what = what == null ? "changed the system properties" : what + " and the system properties";
            restoreProperties();
        }
        if (Locale.getDefault() != locale
                || Locale.getDefault(Locale.Category.FORMAT) != localeFormat
                || Locale.getDefault(Locale.Category.DISPLAY) != localeDisplay) {
            what = what == null ? "changed the default locale" : what + " and the default locale";
            Locale.setDefault(locale);
            Locale.setDefault(Locale.Category.FORMAT, localeFormat);
            Locale.setDefault(Locale.Category.DISPLAY, localeDisplay);
        }
        if (!TimeZone.getDefault().getID().equals(zone.getID())) {
            what = what == null ? "changed the default time zone" : what + " and the default time zone";
            TimeZone.setDefault(zone);
        }
        return what;
    }

    private static void restoreProperties() {
        if (System.getProperties() != props) {
            System.setProperties(props);
        }
        synchronized (props) {
            props.clear();
            props.putAll(snapshot);
        }
        props.changes = 0;
    }
}
