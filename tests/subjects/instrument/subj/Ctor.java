package subj;

/** A constructor whose super() argument is conditional: frames with uninitializedThis. */
public class Ctor extends Base {
    public Ctor(int x) {
        super(x > 0 ? "pos" : "neg"); //@ctor-super
    }

    public static String tagOf(int x) {
        return new Ctor(x).tag(); //@ctor-tagof
    }
}
