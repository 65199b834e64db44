package p;

import java.util.ArrayList;

/** Hierarchy subjects: covariant overrides (bridges), hidden fields, generic and raw supertypes. */
public class Hier {
    public static class Base {
        public int shared;
        public String onlyBase;
        public Object make() { return null; }
        public void baseOnly() {}
        public static void util() {}
    }

    public static class Sub extends Base {
        public long shared;
        @Override public String make() { return ""; }
    }

    public abstract static class Abs { public Abs() {} }

    public static class StrList extends ArrayList<String> {}

    @SuppressWarnings("rawtypes")
    public static class RawList extends ArrayList {}

    public interface Greeter {
        default String greet() { return "hi"; }
        static Greeter create() { return null; }
        String name();
    }

    public interface LoudGreeter extends Greeter {
        @Override default String greet() { return "HI"; }
    }

    public static class Impl implements LoudGreeter {
        public String name() { return "impl"; }
    }

    static class Hidden {
        public static class InHidden {}
    }
}
