package shapes;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * A cell printer after Apache Commons CSV's CSVFormat: {@code print(Object)} copies an
 * InputStream and a Reader by paths of their own, which it tells apart with {@code instanceof}.
 * No signature of the class mentions InputStream or Reader, so nothing would make one: jforge
 * makes values of the types a method tests its arguments against, and passes some of them.
 */
public final class Cells {
    private final String delimiter;

    public Cells(String delimiter) {
        if (delimiter == null || delimiter.isEmpty()) {
            throw new IllegalArgumentException("no delimiter");
        }
        this.delimiter = delimiter;
    }

    public String getDelimiter() {
        return delimiter;
    }

    public List<String> split(String text) {
        List<String> out = new ArrayList<>();
        for (String s : text.split(java.util.regex.Pattern.quote(delimiter), -1)) {
            out.add(s);
        }
        return out;
    }

    public String print(Object value) throws IOException {
        if (value instanceof InputStream) {
            InputStream in = (InputStream) value;
            int n = 0;
            while (in.read() >= 0) {
                n++;
            }
            return "bytes:" + n;
        }
        if (value instanceof Reader) {
            Reader in = (Reader) value;
            int n = 0;
            while (in.read() >= 0) {
                n++;
            }
            return "chars:" + n;
        }
        return String.valueOf(value);
    }
}
