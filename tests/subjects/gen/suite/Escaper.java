package suite;

import java.io.IOException;
import java.io.Writer;

/**
 * Writes its results into the Writer or Appendable it is given, as Commons Lang's translators
 * and Commons CSV's printer do: what a call wrote is its result.
 */
public final class Escaper {
    private final char quote;

    public Escaper(char quote) {
        this.quote = quote;
    }

    /** Escapes {@code in} into {@code out}; returns how many characters it escaped. */
    public int escape(CharSequence in, Writer out) throws IOException {
        int escaped = 0;
        for (int i = 0; i < in.length(); i++) {
            char c = in.charAt(i);
            if (c == quote || c == '\\') {
                out.write('\\');
                escaped++;
            }
            out.write(c);
        }
        return escaped;
    }

    /** Prints {@code value} between quotes into {@code out}. */
    public void print(Appendable out, String value) throws IOException {
        out.append(quote);
        if (value != null) {
            escape(value, new AppendableWriter(out));
        }
        out.append(quote);
    }

    private static final class AppendableWriter extends Writer {
        private final Appendable out;

        AppendableWriter(Appendable out) {
            this.out = out;
        }

        @Override
        public void write(char[] b, int off, int len) throws IOException {
            for (int i = off; i < off + len; i++) {
                out.append(b[i]);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
