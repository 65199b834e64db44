package jforge.worker;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Stubs: the anonymous subclasses jforge makes of abstract classes (jforge writes their class
 * files, named with {@link #MARKER}, onto the worker's class path; src/stubclass.rs). Each
 * abstract method returns the value of a field {@code r<k>} the constructor stored.
 *
 * Why Blame asks: a stub whose method returns null or a default (no other value of the type
 * was at hand) passes it into the code it was given to, or, as a receiver, into its own
 * class's concrete methods ({@code delegate().size()} of a forwarding class); what that code
 * throws then is an input jforge made, not a defect (as {@link Lambdas#returnsNull} for
 * lambdas). A stub whose methods all return values built earlier answers like a real
 * implementation: what breaks then is still reported.
 */
final class Stubs {
    private Stubs() {}

    /** What every stub class name contains (src/stubclass.rs MARKER). */
    static final String MARKER = "$$JforgeStub_";

    /** Is x a stub one of whose methods returns null or a default (0, false, "")? */
    static boolean returnsDefault(Object x) {
        if (x == null || !x.getClass().getName().contains(MARKER)) {
            return false;
        }
        for (Field f : x.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || !f.getName().startsWith("r")) {
                continue;
            }
            try {
                f.setAccessible(true);
                if (isDefault(f.get(x))) {
                    return true;
                }
            } catch (RuntimeException | IllegalAccessException e) {
                return false;
            }
        }
        return false;
    }

    private static boolean isDefault(Object v) {
        return v == null
                || v instanceof Boolean z && !z
                || v instanceof Number n && n.doubleValue() == 0
                || v instanceof Character c && c == 0
                || v instanceof String s && s.isEmpty();
    }
}
