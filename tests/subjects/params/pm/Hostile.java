package pm;

/** Calls a benchmark cannot survive in-process: the JVM exits, or the call never returns. */
public class Hostile {
    public static void exit() {
        System.exit(3);
    }

    public static void spin() {
        while (true) {
            Thread.onSpinWait();
        }
    }

    public static int fine() {
        return 7;
    }
}
