package pm;

/** open(int) accepts one code, compared in the code and found in no constant pool (4711 is
 *  pushed by sipush): only the values the method compared its argument against find it. */
public class Lock {
    private boolean open;

    public void open(int code) {
        if (code != 4711) {
            throw new IllegalArgumentException("wrong code");
        }
        open = true;
    }

    public boolean isOpen() {
        return open;
    }
}
