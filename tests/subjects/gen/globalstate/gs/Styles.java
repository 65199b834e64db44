package gs;

import java.util.HashMap;
import java.util.Map;

/**
 * A registry kept per thread, as commons-lang3's ToStringStyle keeps the objects being
 * printed: register(..) (package access, so a test in this package can call it) and a
 * describe(..) that throws half-way leave an entry behind (in place, in the map
 * ThreadLocal.withInitial made), and a build whose tests check that the registry is empty
 * after each test then fails in every later test; enter(..) sets a plain ThreadLocal and
 * leaves it set; SIMPLE.setNullText(..) changes a style every caller shares. pad(..) uses a
 * buffer filled on first use (ThreadLocal.withInitial): a cache, not a leak.
 */
public class Styles {
    private static final ThreadLocal<Map<Object, Object>> REGISTRY = ThreadLocal.withInitial(HashMap::new);
    private static final ThreadLocal<Object> CURRENT = new ThreadLocal<>();

    /** A style every caller shares (as ToStringStyle.SIMPLE_STYLE): its setters are the JVM's. */
    public static final Styles SIMPLE = new Styles();

    private String nullText = "<null>";

    /** Of package access, as ToStringStyle's setters are protected. */
    void setNullText(String text) {
        nullText = text == null ? "" : text;
    }

    public String format(Object value) {
        return value == null ? nullText : value.toString();
    }
    private static final ThreadLocal<StringBuilder> BUFFER = ThreadLocal.withInitial(StringBuilder::new);

    static Map<Object, Object> getRegistry() {
        return REGISTRY.get();
    }

    static void register(Object value) {
        if (value != null) {
            getRegistry().put(value, null);
        }
    }

    static void unregister(Object value) {
        Map<Object, Object> m = getRegistry();
        m.remove(value);
        if (m.isEmpty()) {
            REGISTRY.remove();
        }
    }

    public static boolean isRegistered(Object value) {
        return getRegistry().containsKey(value);
    }

    /** Sets the thread's current object (a plain ThreadLocal, set and left). */
    public static void enter(Object value) {
        CURRENT.set(value);
    }

    public static Object current() {
        return CURRENT.get();
    }

    /** "<value>"; a negative number throws while it is registered, and stays registered. */
    public static String describe(Object value) {
        register(value);
        if (value instanceof Integer && (Integer) value < 0) {
            throw new IllegalArgumentException("negative: " + value);
        }
        String s = "<" + value + ">";
        unregister(value);
        return s;
    }

    public static String pad(String s, int width) {
        StringBuilder b = BUFFER.get();
        b.setLength(0);
        b.append(s);
        while (b.length() < width) {
            b.append(' ');
        }
        return b.toString();
    }
}
