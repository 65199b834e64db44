package fw;

/**
 * Abstract, of package access, with one constructor of package access (Commons CSV's Lexer):
 * its concrete helpers are reached only through an anonymous subclass written in its package.
 */
abstract class Scanner {
    private final char delimiter;

    Scanner(char delimiter) {
        this.delimiter = delimiter;
    }

    abstract String next();

    boolean isDelimiter(int c) {
        return c == delimiter;
    }

    int count(String line) {
        if (line == null) {
            return 0;
        }
        int n = 1;
        for (int i = 0; i < line.length(); i++) {
            if (isDelimiter(line.charAt(i))) {
                n++;
            }
        }
        return n;
    }
}
