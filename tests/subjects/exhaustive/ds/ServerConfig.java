package ds;

/** An immutable configuration reachable only through its builder: ServerConfig.builder(host)...build(). */
public final class ServerConfig {
    private final String host;
    private final int port;
    private final boolean tls;

    private ServerConfig(Builder b) {
        this.host = b.host;
        this.port = b.port;
        this.tls = b.tls;
    }

    public static Builder builder(String host) {
        return new Builder(host);
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public boolean tls() {
        return tls;
    }

    @Override
    public String toString() {
        return host + ":" + port + (tls ? " (tls)" : "");
    }

    public static final class Builder {
        private final String host;
        private int port = 80;
        private boolean tls;

        private Builder(String host) {
            if (host == null) {
                throw new IllegalArgumentException("host");
            }
            this.host = host;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder tls(boolean tls) {
            this.tls = tls;
            return this;
        }

        public ServerConfig build() {
            return new ServerConfig(this);
        }
    }
}
