package jforge.worker;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A javac that stays warm for one jforge run: the check compiles the written tests here
 * instead of starting a javac JVM for each round (src/emit/validate/javac_server.rs).
 *
 * <p>The first compile in a JVM runs javac's code in the interpreter; the ones after it run
 * compiled code and take about half as long. jforge starts this JVM before the check and gives
 * it a warm-up source first, so that the tests' compile is not the first.
 *
 * <p>Protocol, one line each way per request: jforge writes {@code ID TAB ARGFILE} (the
 * argument file holds one javac argument per line, UTF-8); this JVM compiles with those
 * arguments, writes javac's output to {@code ARGFILE.out} and answers {@code ID TAB EXITCODE}.
 * Each request is compiled on a thread of its own, so that jforge can split a suite's files
 * over the cores: the compilations share this JVM's compiled code, which a javac process
 * each would warm up twice. It ends when its standard input closes. With no compiler in this
 * JDK (a JRE) it answers {@code NOJAVAC} and ends.
 */
public final class JavacServer {
    private JavacServer() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            out.println("NOJAVAC");
            return;
        }
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            int tab = line.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            String id = line.substring(0, tab);
            Path argFile = Path.of(line.substring(tab + 1));
            Thread t = new Thread(() -> compile(javac, id, argFile, out), "javac-" + id);
            t.setDaemon(true);
            t.start();
        }
    }

    /** One request: compiles, writes the output file, answers. */
    private static void compile(JavaCompiler javac, String id, Path argFile, PrintStream out) {
        int rc;
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try {
            List<String> javacArgs = Files.readAllLines(argFile, StandardCharsets.UTF_8);
            PrintStream log = new PrintStream(text, true, StandardCharsets.UTF_8);
            rc = javac.run(null, log, log, javacArgs.toArray(new String[0]));
            log.flush();
        } catch (Throwable t) {
            // javac itself failed (out of memory, a bug): jforge runs a javac process instead.
            text.writeBytes(("jforge javac server: " + t).getBytes(StandardCharsets.UTF_8));
            rc = -1;
        }
        try {
            Files.write(Path.of(argFile + ".out"), text.toByteArray());
        } catch (Throwable t) {
            rc = -1;
        }
        synchronized (out) {
            out.println(id + "\t" + rc);
        }
    }
}
