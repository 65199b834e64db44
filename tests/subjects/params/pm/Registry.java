package pm;

/** register(Object) casts its argument to Tag: a String or an Integer throws ClassCastException. */
public class Registry {
    private Tag last;

    public boolean register(Object o) {
        Tag t = (Tag) o;
        last = t;
        return t.name() != null;
    }

    public Tag last() {
        return last;
    }
}
