package cmd;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class CommandParserTest {
    @Test
    public void get() {
        assertEquals(1, new CommandParser().exec("GET", 11, 'x'));
    }

    @Test
    public void put() {
        CommandParser p = new CommandParser();
        assertEquals(3, p.exec("PUT", 100, 'x'));
        assertEquals(5, p.exec("PUT", 1, 'x'));
    }
}
