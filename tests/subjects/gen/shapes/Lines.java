package shapes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/**
 * A reader that counts carriage returns, as Commons CSV's ExtendedBufferedReader counts lines
 * (Defects4J Csv-1), and a parser that prints what it cannot read, as Commons CLI's
 * TypeHandler.createNumber does (Defects4J Cli-3). It inherits Reader's static nullReader().
 */
public class Lines extends BufferedReader {
    private int returns;

    public Lines(Reader in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int c = super.read();
        if (c == '\r') {
            returns++;
        }
        return c;
    }

    public int returns() {
        return returns;
    }

    /** The number in {@code s}, or null, printing why, when it is none. */
    public static Long parse(String s) {
        try {
            return Long.valueOf(s);
        } catch (NumberFormatException e) {
            System.err.println(e.getMessage());
            return null;
        }
    }
}
