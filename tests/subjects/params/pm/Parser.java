package pm;

/** parse(String) needs a number. */
public class Parser {
    public static int parse(String s) {
        return Integer.parseInt(s) * 2;
    }
}
