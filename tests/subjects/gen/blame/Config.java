package blame;

/**
 * A class built only through its Builder, whose toString throws when no name was set (a
 * planted bug): the defect is Config's, reached through Config.Builder, and its error test
 * goes to ConfigErrorTest.
 */
public class Config {
    private final String name;
    private final int port;

    private Config(String name, int port) {
        this.name = name;
        this.port = port;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int port() {
        return port;
    }

    @Override
    public String toString() {
        return "Config(" + name.trim() + ":" + port + ")";
    }

    /** Builds a Config. */
    public static class Builder {
        private String name;
        private int port = 80;

        public Builder port(int p) {
            port = p;
            return this;
        }

        public Builder name(String n) {
            name = n;
            return this;
        }

        public Config build() {
            return new Config(name, port);
        }
    }
}
