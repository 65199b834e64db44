package hostile;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;

/** Each method misbehaves in a way that must not take jforge down. */
public class Hostile {
    private int calls;

    public Hostile() {}

    public int count() { return ++calls; }

    public void exit() { System.exit(7); }

    public void halt() { Runtime.getRuntime().halt(9); }

    public void spin() { while (true) { calls++; } }

    public long allocate() {
        java.util.List<long[]> hog = new java.util.ArrayList<>();
        while (true) hog.add(new long[1 << 20]);
    }

    public int recurse(int n) { return recurse(n + 1) + 1; }

    public void shout() throws IOException {
        byte[] line = new byte[1 << 20];
        java.util.Arrays.fill(line, (byte) 'x');
        FileOutputStream raw = new FileOutputStream(FileDescriptor.out);
        for (int i = 0; i < 20; i++) { System.out.write(line); raw.write(line); System.err.write(line); }
    }

    public void linger() {
        Thread t = new Thread(() -> { while (true) { try { Thread.sleep(1000); } catch (InterruptedException e) { return; } } });
        t.start();
    }
}
