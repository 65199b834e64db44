package jforge.worker;

import java.io.FilterInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
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
 * <p>Also the thread's share of the code under test's static state: a value a call leaves in a
 * static {@code ThreadLocal} of a class of the class path ({@link #watchThreadLocals}). Why:
 * commons-lang3's {@code ToStringStyle.register(x)} (package access, so callable from the tests'
 * package) and a {@code reflectionToString} that throws half-way leave an entry in
 * {@code ToStringStyle.REGISTRY}, and every later test of the project that checks the registry
 * is empty fails: 7,759 of its 12,292 tests under Surefire. The watch compares the value before
 * and after each call, so a {@code ThreadLocal.withInitial} cache filled on first use is no
 * change, and the value is put back after a flagged call.
 *
 * <p>Cost per call: two counter reads, three reads of the default locales and one of the default
 * time zone's id (the zone itself is cloned by TimeZone.getDefault()), and two reads of each
 * watched ThreadLocal (none in most code; a handful in commons-lang3).
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

    /**
     * The static ThreadLocal fields watched, and the classes already looked at. Arrays, not
     * JDK collections: the watch runs inside every call's coverage window, and
     * java.util.ArrayList may be the class under test, instrumented (its `isEmpty()` would
     * count as covered by every sequence); nor hash sets: a Class's hashCode() is its
     * identity hash, and taking one moves the identity hashes the thread hands out later.
     */
    private static Field[] threadLocals = new Field[0];
    private static Class<?>[] lookedAt = new Class<?>[0];

    /** Unsafe, asked for when the first ThreadLocal is read (not at the worker's start). */
    private static final class Lazy {
        static final sun.misc.Unsafe UNSAFE = UnsafeFieldAccess.unsafe();
    }

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

    /**
     * Watches the static ThreadLocal fields of {@code c}, a class an operation calls, and of its
     * enclosing classes and superclasses, when they come from the class path (not the JDK's
     * own: their ThreadLocals are caches). Not initialized here: a field is read only once its
     * class is (a class initialized by the call itself is read after it, against no value
     * before).
     */
    static void watchThreadLocals(Class<?> c) {
        if (c == null || looked(c)) {
            return;
        }
        ClassLoader l = c.getClassLoader();
        if (l == null || l == ClassLoader.getPlatformClassLoader()) {
            return;
        }
        lookedAt = Arrays.copyOf(lookedAt, lookedAt.length + 1);
        lookedAt[lookedAt.length - 1] = c;
        try {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && ThreadLocal.class.isAssignableFrom(f.getType())
                        && f.trySetAccessible()) {
                    threadLocals = Arrays.copyOf(threadLocals, threadLocals.length + 1);
                    threadLocals[threadLocals.length - 1] = f;
                }
            }
            watchThreadLocals(c.getEnclosingClass());
            watchThreadLocals(c.getSuperclass());
        } catch (LinkageError | SecurityException e) {
            // a class whose fields cannot be listed is not watched
        }
    }

    private static boolean looked(Class<?> c) {
        for (Class<?> k : lookedAt) {
            if (k == c) {
                return true;
            }
        }
        return false;
    }

    /** A watched ThreadLocal's value in this thread, and its size (see {@link #sizeOf}). */
    record Seen(Object value, int size) {
        static Seen of(Field f) {
            Object v = threadLocalValue(f);
            return new Seen(v, sizeOf(v));
        }

        /** Another value; for collections and maps (null counting as empty), another size. */
        boolean differs(Seen now) {
            return size >= 0 && now.size >= 0 ? size != now.size : value != now.value;
        }
    }

    /** The watched ThreadLocals' values in this thread (null when none is watched). */
    static Seen[] threadLocalsBefore() {
        if (threadLocals.length == 0) {
            return null;
        }
        Seen[] v = new Seen[threadLocals.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = Seen.of(threadLocals[i]);
        }
        return v;
    }

    private static Object threadLocalValue(Field f) {
        try {
            if (Lazy.UNSAFE != null && Lazy.UNSAFE.shouldBeInitialized(f.getDeclaringClass())) {
                return null;
            }
            ThreadLocal<?> tl = (ThreadLocal<?>) f.get(null);
            return tl == null ? null : tl.get();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The size of a collection or map (a registry filled in place), 0 for null (a registry
     * emptied by remove() is another, empty, map at the next get(); one whose class the call
     * initialized was null before: neither is a change), else -1 (compared by identity).
     */
    private static int sizeOf(Object x) {
        try {
            if (x == null) {
                return 0;
            }
            if (x instanceof java.util.Collection<?> c) {
                return c.size();
            }
            if (x instanceof Map<?, ?> m) {
                return m.size();
            }
        } catch (RuntimeException | LinkageError e) {
            // a collection whose size throws is compared by identity alone
        }
        return -1;
    }

    /**
     * The watched ThreadLocal a call changed, or null: another value, or (for collections and
     * maps) another size (commons-lang3's {@code ToStringStyle.REGISTRY} is a
     * {@code ThreadLocal.withInitial(WeakHashMap::new)} filled in place). Put back: the value
     * before, or the ThreadLocal emptied (its initial value again) when it was filled in place.
     */
    private static String threadLocalChanged(Seen[] before) {
        String what = null;
        for (int i = 0; i < threadLocals.length; i++) {
            Field f = threadLocals[i];
            Seen was = before != null && i < before.length ? before[i] : new Seen(null, 0);
            Seen now = Seen.of(f);
            if (!was.differs(now)) {
                continue;
            }
            if (what == null) {
                what = "left a value in the ThreadLocal " + f.getDeclaringClass().getName() + "." + f.getName();
            }
            try {
                @SuppressWarnings("unchecked")
                ThreadLocal<Object> tl = (ThreadLocal<Object>) f.get(null);
                if (was.value() == null || now.value() == was.value()) {
                    tl.remove();
                } else {
                    tl.set(was.value());
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // left as it is: the call is flagged all the same
            }
        }
        return what;
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
    static String after(boolean watch, long closesBefore, long propertyChangesBefore, Seen[] threadLocalsBefore) {
        if (watch) {
            return changedSince(closesBefore, propertyChangesBefore, threadLocalsBefore);
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
    private static String changedSince(long closesBefore, long propertyChangesBefore, Seen[] threadLocalsBefore) {
        if (props == null) {
            return null;
        }
        String what = threadLocalChanged(threadLocalsBefore);
        if (consoleCloses != closesBefore) {
            what = what == null ? "closed System.in, System.out or System.err" : what + " and closed the console";
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
