package p;

import java.util.ArrayList;
import java.util.List;

/** Test subject for the model: nesting, flags, generics, varargs, literals. */
public class Subject<T> {
    public static final String GREETING = "hello-literal";
    public static final long BIG = 1234567890123L;
    public static final double RATIO = 2.75;
    public int count;
    public T value;

    public class Inner {
        public Inner(int x) {}
        public Inner(T t, String s) {}
        public T get() { return null; }
    }

    public static class Nested {
        public Nested(String s, int... rest) {}
    }

    protected static class Prot {}

    public interface Callback {
        void call();
    }

    public enum Color { RED, GREEN, BLUE }

    public Subject() {}

    private Subject(T t) {}

    public static <E extends Comparable<? super E>> E max(List<? extends E> xs) throws java.io.IOException {
        return null;
    }

    public String join(String sep, Object... parts) { return sep + BIG + RATIO; }

    public void run() {
        Runnable r = new Runnable() { public void run() {} };
        class Local {}
        r.run();
        new Local();
    }
}
