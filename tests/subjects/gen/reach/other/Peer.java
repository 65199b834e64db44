package reach.other;

import reach.Counter;

/**
 * Package-private in another package than {@link Counter}, whose constructor is protected:
 * a sequence that makes a Counter and passes it here can be the test of neither package.
 */
class Peer {
    Peer() {}

    int twice(Counter c) {
        return c == null ? -1 : 2 * c.next();
    }
}
