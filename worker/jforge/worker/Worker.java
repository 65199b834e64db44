package jforge.worker;

import java.io.PrintStream;
import java.nio.MappedByteBuffer;
import java.nio.channels.SocketChannel;

import static jforge.worker.Proto.CLASS_BYTES;
import static jforge.worker.Proto.EXEC;
import static jforge.worker.Proto.HELLO;
import static jforge.worker.Proto.LIST_CLASSES;
import static jforge.worker.Proto.MAGIC;
import static jforge.worker.Proto.REGISTER;
import static jforge.worker.Proto.SHUTDOWN;
import static jforge.worker.Proto.VERSION;

/**
 * One worker session: says HELLO (magic, protocol version, pid), then serves requests in
 * order until jforge closes the socket or sends SHUTDOWN. Each request goes to the part that
 * has that one job (the worker is single-threaded, apart from the watchdog):
 *
 * <ul>
 *   <li>Frames: reading requests, writing replies (constants in Proto, generated from
 *       src/runner/protocol.txt with the Rust side's);
 *   <li>Registry: REGISTER, the reflection lookup of operations, EXEC's type strings;
 *   <li>Executor: EXEC, running statements; with Progress (progress file, watchdog), Fatal
 *       (out of memory, stack overflow), Leaks (threads and processes left behind),
 *       OutputSink (what the code under test prints);
 *   <li>Outcomes: what each statement did, encoded for RESULT frames;
 *   <li>Contracts: contracts and observers after the last statement;
 *   <li>Jrt: CLASS_BYTES and LIST_CLASSES, the JDK class server;
 *   <li>extensions: Exhaustive (bulk requests), Canon (canonical forms), Protos (prototypes,
 *       deep copies), Coverage (probe hits, comparison logging).
 * </ul>
 */
final class Worker {
    private final Frames frames;
    private final Progress progress;
    private final Leaks leaks;
    private final Registry registry;
    private final Executor executor;
    private final Jrt jrt = new Jrt();

    Worker(SocketChannel ch, MappedByteBuffer pm, long timeoutMs, long initialMs, PrintStream realErr) {
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        frames = new Frames(ch);
        progress = new Progress(pm, timeoutMs, initialMs);
        leaks = new Leaks(progress);
        registry = new Registry(loader);
        Coverage coverage = new Coverage(loader, realErr);
        Outcomes outcomes = new Outcomes(coverage);
        Contracts contracts = new Contracts(progress, outcomes, registry);
        executor = new Executor(frames, registry, progress, outcomes, contracts, coverage, leaks, loader);
    }

    /**
     * The protocol version sent in HELLO. jforge.test.protocolVersion overrides it: used only
     * by jforge's tests of the handshake, to play a stale worker jar.
     */
    static int version() {
        return Integer.getInteger("jforge.test.protocolVersion", VERSION);
    }

    void serve() throws Exception {
        progress.startWatchdog();
        leaks.baseline();
        Buf out = frames.start(HELLO);
        out.i32(MAGIC);
        out.u16(version());
        out.i64(ProcessHandle.current().pid());
        frames.send();
        while (true) {
            long w0 = CallProfile.ON ? System.nanoTime() : 0;
            if (!frames.next()) {
                return;
            }
            if (CallProfile.ON) {
                CallProfile.PHASE[0] += System.nanoTime() - w0;
            }
            int tag = frames.in.ru8();
            switch (tag) {
                case REGISTER -> registry.register(frames);
                case EXEC -> executor.exec();
                case CLASS_BYTES -> jrt.classBytes(frames);
                case LIST_CLASSES -> jrt.listClasses(frames);
                case SHUTDOWN -> {
                    return;
                }
                default -> throw new IllegalStateException("unknown request " + tag);
            }
        }
    }
}
