package subj;

public class Base {
    protected final String tag;

    public Base(String tag) {
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }
}
