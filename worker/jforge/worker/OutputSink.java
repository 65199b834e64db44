package jforge.worker;

import java.io.OutputStream;

/**
 * Where System.out and System.err go in a worker: nowhere, but counted. Why discard: the
 * code under test may print anything and the protocol is on a socket, not stdout. Why count:
 * a call that prints megabytes would flood the console of whoever runs its tests, so the
 * executor reports a call printing more than Executor.MAX_OUTPUT as jforge.ExcessiveOutput.
 */
final class OutputSink extends OutputStream {
    /** Bytes printed through System.out/err since the worker started. */
    static volatile long written;

    @Override
    public void write(int b) {
        written++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        written += len;
    }

    /** A call that closes System.out or System.err (see GlobalState). */
    @Override
    public void close() {
        GlobalState.consoleCloses++;
    }
}
