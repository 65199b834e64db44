package pm;

/** The simplest producer (readOnly()) makes a store whose put() throws UnsupportedOperationException. */
public class Store {
    protected String value = "";

    public Store(String initial) {
        value = initial;
    }

    public static Store readOnly() {
        return new ReadOnly();
    }

    public String put(String v) {
        String old = value;
        value = v;
        return old;
    }

    /** A store that refuses writes. */
    public static class ReadOnly extends Store {
        public ReadOnly() {
            super("fixed");
        }

        @Override
        public String put(String v) {
            throw new UnsupportedOperationException("read-only store");
        }
    }
}
