package jforge.worker;

import java.io.PrintStream;
import java.net.UnixDomainSocketAddress;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Entry point of a jforge worker JVM.
 *
 * <p>Arguments: socket path, progress file path, per-call time limit in milliseconds. The worker
 * connects to the Rust side over a Unix domain socket (the code under test cannot reach it, unlike
 * stdout), silences System.out/err, and serves requests until the socket closes.
 *
 * <p>The progress file is memory-mapped and shared with the Rust side: it records which sequence
 * and statement run now and the outcomes so far, so that the sequence can be blamed even when the
 * JVM dies without a word (System.exit, Runtime.halt, a kill after a hang).
 */
public final class Main {
    private Main() {}

    /** The JVM's stderr before the code under test's output was silenced. */
    private static PrintStream realErr = System.err;

    /** A warning for whoever reads the worker's stderr (jforge shows it when a worker fails). */
    static void warn(String what) {
        realErr.println("jforge worker: warning: " + what);
    }

    public static void main(String[] args) throws Throwable {
        realErr = System.err;
        if (args.length < 3) {
            realErr.println("usage: jforge.worker.Main SOCKET PROGRESS_FILE CALL_TIMEOUT_MS [INITIAL_LIMIT_MS]");
            Runtime.getRuntime().halt(Proto.EXIT_USAGE);
        }
        GlobalState.install();
        MappedByteBuffer progress;
        try (FileChannel fc = FileChannel.open(Path.of(args[1]), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            progress = fc.map(FileChannel.MapMode.READ_WRITE, 0, fc.size());
        }
        long timeoutMs = Long.parseLong(args[2]);
        // the limit an earlier worker adapted to (Progress), else the cap itself
        long initialMs = args.length > 3 ? Long.parseLong(args[3]) : timeoutMs;
        SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(args[0]));
        Worker w = new Worker(ch, progress, timeoutMs, initialMs, realErr);
        try {
            w.serve();
        } catch (Throwable t) {
            realErr.println("jforge worker: fatal: " + t);
            t.printStackTrace(realErr);
            realErr.flush();
            exit(Proto.EXIT_FATAL);
        }
        exit(0);
    }

    /**
     * Ends the worker: processes the code under test left running are killed first (jforge
     * also kills the worker's process group, but it may be gone: the socket closes when it
     * dies).
     */
    private static void exit(int code) {
        try {
            if (Leaks.mayHaveChildren()) {
                Leaks.killDescendants(0);
            }
        } catch (Throwable t) {
            // exiting anyway
        }
        Runtime.getRuntime().halt(code);
    }
}
