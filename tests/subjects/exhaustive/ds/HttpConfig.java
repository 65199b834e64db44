package ds;

/**
 * An immutable configuration behind a builder (no public constructor):
 * HttpConfig.builder(host).port(p).tls(b).build(), and withTimeout(s) for a copy with another
 * timeout. Builder.secure() is tls(true) under another name, toBuilder() only rebuilds what
 * the builder built already, Builder.host() and the config's getters change nothing: none of
 * them builds a structure the others cannot.
 */
public final class HttpConfig {
    private final String host;
    private final int port;
    private final boolean tls;
    private final int timeout;

    private HttpConfig(Builder b) {
        this.host = b.host;
        this.port = b.port;
        this.tls = b.tls;
        this.timeout = 30;
    }

    private HttpConfig(HttpConfig c, int timeout) {
        this.host = c.host;
        this.port = c.port;
        this.tls = c.tls;
        this.timeout = timeout;
    }

    public static Builder builder(String host) {
        return new Builder(host);
    }

    public HttpConfig withTimeout(int seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("timeout must not be negative: " + seconds);
        }
        return new HttpConfig(this, seconds);
    }

    public Builder toBuilder() {
        return new Builder(host).port(port).tls(tls);
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

    public int timeout() {
        return timeout;
    }

    @Override
    public String toString() {
        return (tls ? "https://" : "http://") + host + ":" + port + " (" + timeout + "s)";
    }

    public static final class Builder {
        private final String host;
        private int port = 80;
        private boolean tls;

        private Builder(String host) {
            if (host == null || host.isEmpty()) {
                throw new IllegalArgumentException("host must not be empty");
            }
            this.host = host;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("no such port: " + port);
            }
            this.port = port;
            return this;
        }

        public Builder tls(boolean tls) {
            this.tls = tls;
            return this;
        }

        public Builder secure() {
            return tls(true);
        }

        public String host() {
            return host;
        }

        public HttpConfig build() {
            return new HttpConfig(this);
        }
    }
}
