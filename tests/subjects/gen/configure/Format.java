package configure;

/** An immutable format: a constant, configured through fluent `with` methods. */
public final class Format {
    public static final Format PLAIN = new Format(null, ',');

    private final String[] header;
    private final char delimiter;

    private Format(String[] header, char delimiter) {
        this.header = header;
        this.delimiter = delimiter;
    }

    public Format withHeader(String... header) {
        return new Format(header == null ? null : header.clone(), delimiter);
    }

    public Format withDelimiter(char delimiter) {
        return new Format(header, delimiter);
    }

    public char getDelimiter() {
        return delimiter;
    }

    String[] header() {
        return header;
    }
}
