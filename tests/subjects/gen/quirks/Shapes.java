package quirks;

import java.util.List;

/** Overloads, varargs, nested and inner classes, enums and generics in one place. */
public class Shapes {
    public enum Kind { CIRCLE, SQUARE, TRIANGLE }

    public static class Box<T extends Comparable<T>> {
        private T best;
        public void offer(T t) { if (best == null || t.compareTo(best) > 0) best = t; }
        public T getBest() { return best; }
        public boolean isEmpty() { return best == null; }
    }

    public class Counter {
        private int n;
        public void tick() { n++; total++; }
        public int getCount() { return n; }
    }

    private int total;
    private Kind kind = Kind.CIRCLE;

    public Shapes() {}

    public String describe(Object o) { return "object"; }
    public String describe(String s) { return "string:" + s.length(); }
    public String describe(int i) { return "int:" + i; }
    public String describe(long l) { return "long:" + l; }

    public int sum(int... xs) { int s = 0; for (int x : xs) s += x; return s; }
    public String join(String sep, String... parts) { return String.join(sep, parts); }

    public void setKind(Kind k) { kind = k; }
    public Kind getKind() { return kind; }
    public int sides(Kind k) {
        switch (k) { case TRIANGLE: return 3; case SQUARE: return 4; default: return 0; }
    }

    public int getTotal() { return total; }
    public static <T> T firstOf(List<T> list) { return list.isEmpty() ? null : list.get(0); }
    public char initial(String s) { return s.isEmpty() ? '\n' : s.charAt(0); }
    public double ratio(double a, double b) { return a / b; }
    public long big(long x) { return x * 1000000007L; }
}
