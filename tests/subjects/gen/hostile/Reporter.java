package hostile;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;

/** Takes streams: helper objects for them must not be files (`new PrintStream("x")`). */
public class Reporter {
    private final String title;

    public Reporter(String title) { this.title = title; }

    public int report(Writer w) throws IOException {
        w.write(title);
        w.flush();
        return title.length();
    }

    public void print(PrintStream p) {
        p.print(title);
    }
}
