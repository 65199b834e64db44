package hostile;

import java.io.IOException;

/** Starts a process and leaves it running (what users saw pile up in thousands). */
public class Spawner {
    private int started;

    public Spawner() {}

    public int count() { return started; }

    public void start() throws IOException {
        new ProcessBuilder("sleep", "347").start();
        started++;
    }
}
