package fw;

/**
 * An abstract class with a package-private constructor and a protected abstract method:
 * only a subclass in package fw can be made, so its methods get a receiver only from an
 * anonymous subclass written in a test of this package.
 */
public abstract class Job {
    private final String name;

    Job(String name) {
        if (name == null) {
            throw new IllegalArgumentException("a job needs a name");
        }
        this.name = name;
    }

    protected abstract int run(int x);

    public String describe(int x) {
        return name + ":" + run(x);
    }

    public int name() {
        return name.length();
    }
}
