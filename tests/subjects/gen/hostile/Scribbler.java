package hostile;

import java.io.FileWriter;
import java.io.IOException;

/** Writes a file into the folder it runs in (what users found in their project folder). */
public class Scribbler {
    private int saved;

    public Scribbler() {}

    public int saved() { return saved; }

    public void save(String text) throws IOException {
        try (FileWriter w = new FileWriter("jforge-scribble-" + saved + ".txt")) {
            w.write(text == null ? "" : text);
        }
        saved++;
    }
}
