package jdk;

import static org.junit.Assert.assertEquals;
import java.util.ArrayDeque;
import org.junit.Test;

public class DequeTest {
    @Test
    public void addAndPoll() {
        ArrayDeque<Integer> d = new ArrayDeque<>();
        d.addFirst(1);
        d.addLast(2);
        assertEquals(Integer.valueOf(1), d.pollFirst());
        assertEquals(1, d.size());
    }
}
