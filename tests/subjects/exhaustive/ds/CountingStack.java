package ds;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stack that counts its pushes in an AtomicInteger, whose field lives in a JDK package the
 * worker is not opened to (java.util.concurrent.atomic). The canonical walk leaves that field
 * out whatever the field access; the copier copies it through sun.misc.Unsafe and refuses to
 * with method handles (jforge exhaustive then re-executes sequences). The structures found
 * must not depend on that.
 */
public class CountingStack {
    static final class Node {
        int value;
        Node next;
    }

    private Node top;
    private final AtomicInteger pushes = new AtomicInteger();

    public void push(int v) {
        Node n = new Node();
        n.value = v;
        n.next = top;
        top = n;
        pushes.incrementAndGet();
    }

    public int pop() {
        if (top == null) {
            throw new IllegalStateException("empty");
        }
        int v = top.value;
        top = top.next;
        return v;
    }
}
