package jforge.worker;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
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

    public static void main(String[] args) throws Throwable {
        PrintStream realErr = System.err;
        if (args.length < 3) {
            realErr.println("usage: jforge.worker.Main SOCKET PROGRESS_FILE CALL_TIMEOUT_MS");
            Runtime.getRuntime().halt(Proto.EXIT_USAGE);
        }
        PrintStream sink = new PrintStream(new CountingSink());
        System.setOut(sink);
        System.setErr(sink);
        System.setIn(java.io.InputStream.nullInputStream());
        MappedByteBuffer progress;
        try (FileChannel fc = FileChannel.open(Path.of(args[1]), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            progress = fc.map(FileChannel.MapMode.READ_WRITE, 0, fc.size());
        }
        long timeoutMs = Long.parseLong(args[2]);
        SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(args[0]));
        Worker w = new Worker(ch, progress, timeoutMs, realErr);
        try {
            w.serve();
        } catch (Throwable t) {
            realErr.println("jforge worker: fatal: " + t);
            t.printStackTrace(realErr);
            realErr.flush();
            Runtime.getRuntime().halt(Proto.EXIT_FATAL);
        }
        Runtime.getRuntime().halt(0);
    }

    static void writeFully(SocketChannel ch, Buf out) throws java.io.IOException {
        int len = out.n - 4;
        out.b[0] = (byte) (len >>> 24);
        out.b[1] = (byte) (len >>> 16);
        out.b[2] = (byte) (len >>> 8);
        out.b[3] = (byte) len;
        ByteBuffer bb = ByteBuffer.wrap(out.b, 0, out.n);
        while (bb.hasRemaining()) {
            ch.write(bb);
        }
    }

    /** Reads one frame into {@code in}; returns false at end of stream. */
    static boolean readFrame(SocketChannel ch, Buf in) throws java.io.IOException {
        in.reset();
        ByteBuffer hdr = ByteBuffer.allocate(4);
        while (hdr.hasRemaining()) {
            if (ch.read(hdr) < 0) {
                return false;
            }
        }
        int len = hdr.getInt(0);
        if (len < 0) {
            throw new java.io.IOException("bad frame length " + len);
        }
        in.ensure(len);
        ByteBuffer bb = ByteBuffer.wrap(in.b, 0, len);
        while (bb.hasRemaining()) {
            if (ch.read(bb) < 0) {
                throw new java.io.IOException("truncated frame");
            }
        }
        in.n = len;
        return true;
    }

    /** Discards what the code under test prints through System.out/err, counting the bytes so
     *  that a call printing megabytes can be reported (its tests would flood the user's console). */
    static final class CountingSink extends OutputStream {
        static volatile long written;

        @Override
        public void write(int b) {
            written++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            written += len;
        }
    }
}
