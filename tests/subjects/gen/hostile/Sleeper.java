package hostile;

/** A call that takes a minute: at the stop time it must not hold the run for its call timeout. */
public class Sleeper {
    private int n;

    public Sleeper() {}

    public int next() { return ++n; }

    public void nap() throws InterruptedException { Thread.sleep(60_000); }
}
