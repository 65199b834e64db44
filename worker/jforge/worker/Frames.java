package jforge.worker;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import static jforge.worker.Proto.RESULT;

/**
 * Protocol frames on the worker's Unix domain socket: reads requests, writes replies. A frame
 * is a big-endian u32 length and a payload whose first byte is the message tag (Proto, shared
 * with jforge's src/runner/protocol.rs). Why a socket and not stdout: the code under test
 * cannot write into it. Why one reusable buffer per direction: RESULT frames are the hot path
 * (thousands a second), built and sent without allocation.
 */
final class Frames {
    private final SocketChannel ch;
    private final ByteBuffer header = ByteBuffer.allocate(4);
    /** The request being read (payload only, tag first). */
    final Buf in = new Buf(1 << 16);
    /** The reply being built: see {@link #start}. */
    final Buf out = new Buf(1 << 16);

    Frames(SocketChannel ch) {
        this.ch = ch;
    }

    /** Reads the next request into {@link #in}; false at the end of the stream. */
    boolean next() throws IOException {
        in.reset();
        header.clear();
        while (header.hasRemaining()) {
            if (ch.read(header) < 0) {
                return false;
            }
        }
        int len = header.getInt(0);
        if (len < 0) {
            throw new IOException("bad frame length " + len);
        }
        in.ensure(len);
        ByteBuffer bb = ByteBuffer.wrap(in.b, 0, len);
        while (bb.hasRemaining()) {
            if (ch.read(bb) < 0) {
                throw new IOException("truncated frame");
            }
        }
        in.n = len;
        return true;
    }

    /** Starts a reply in {@link #out}: room for the length, then the message tag. */
    Buf start(int tag) {
        out.reset();
        out.i32(0);
        out.u8(tag);
        return out;
    }

    /**
     * Starts a RESULT frame: the request's tag, its number of statements (or tasks) and their
     * outcome bytes. The caller appends the rest and calls {@link #send}.
     */
    Buf result(int tag, int n, Buf outcomes) {
        Buf o = start(RESULT);
        o.i32(tag);
        o.i32(n);
        o.bytes(outcomes.b, 0, outcomes.n);
        return o;
    }

    /** Fills in the length of the reply built in {@link #out} and sends it. */
    void send() throws IOException {
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
}
