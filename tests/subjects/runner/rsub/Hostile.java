package rsub;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Code under test that misbehaves on purpose (see tests/runner_hostile.rs). */
public class Hostile {
    public static int ok() {
        return 42;
    }

    public static void exit3() {
        System.exit(3);
    }

    public static void halt5() {
        Runtime.getRuntime().halt(5);
    }

    public static int loop() {
        long x = 0;
        while (x >= 0) {
            x = (x + 1) & 0xffff;
        }
        return (int) x;
    }

    public static int oom() {
        List<long[]> hog = new ArrayList<>();
        while (true) {
            hog.add(new long[1 << 20]);
        }
    }

    /** Fills the heap and keeps it full: the worker cannot go on. */
    static final List<long[]> KEPT = new ArrayList<>();

    public static int oomKept() {
        while (true) {
            KEPT.add(new long[1 << 20]);
        }
    }

    /** A value whose size() never ends (as a view over an endless stream). */
    public static Endless endless() {
        return new Endless();
    }

    /** See endless(). */
    public static class Endless {
        public int size() {
            long x = 0;
            while (x >= 0) {
                x = (x + 1) & 0xffff;
            }
            return (int) x;
        }
    }

    /** A value whose toString never ends (as a view over an endless iterable). */
    public static Object endlessToString() {
        return new Object() {
            @Override
            public String toString() {
                long x = 0;
                while (x >= 0) {
                    x = (x + 1) & 0xffff;
                }
                return "never";
            }
        };
    }

    /**
     * Waits a minute and ignores interrupts (as guava's Uninterruptibles and
     * Queues.drainUninterruptibly do): only Thread.stop ends it.
     */
    public static int napUninterruptibly() {
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            java.util.concurrent.locks.LockSupport.parkNanos(end - System.nanoTime());
            Thread.interrupted();
        }
        return 1;
    }

    /** Waits a minute, interruptibly. */
    public static int nap() throws InterruptedException {
        Thread.sleep(60_000);
        return 1;
    }

    /** Computes (stays runnable, never waits) for about {@code millis} milliseconds. */
    public static int busy(int millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x++;
        }
        return (int) (x & 1) + 1;
    }

    public static int twice(int n) {
        return 2 * n;
    }

    /** One allocation sized by its argument. */
    public static int alloc(int n) {
        long[] a = new long[n];
        return a.length;
    }

    public static int recurse(int n) {
        return recurse(n + 1) + 1;
    }

    public static int spamOut() {
        byte[] line = new byte[1024];
        java.util.Arrays.fill(line, (byte) 'x');
        for (int i = 0; i < 50 * 1024; i++) {
            System.out.write(line, 0, line.length);
        }
        return 1;
    }

    public static int spamFd() throws IOException {
        byte[] line = new byte[1024];
        java.util.Arrays.fill(line, (byte) 'y');
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        FileOutputStream err = new FileOutputStream(FileDescriptor.err);
        for (int i = 0; i < 25 * 1024; i++) {
            out.write(line);
            err.write(line);
        }
        return 2;
    }

    public static void leakThread() {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    // keep running
                }
            }
        });
        t.start();
    }

    /** Starts a process and leaves it running. */
    public static void spawn() throws IOException {
        new ProcessBuilder("sleep", "348").start();
    }

    /**
     * Starts a process whose child outlives it: `sleep 349` ends up nobody's descendant, in
     * the worker's process group.
     */
    public static int escape() throws IOException, InterruptedException {
        return new ProcessBuilder("sh", "-c", "sleep 349 &").start().waitFor();
    }
}
