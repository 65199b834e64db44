package cmd;

/**
 * Branches that need specific numbers which no constant of the class file supplies (31337,
 * 'q' and the switch keys are instruction operands, 90001..90009 lies strictly between two
 * constants, ID is computed at run time): only comparison logging can find them.
 */
public class Codes {
    private static final long ID = Long.parseLong("123456789012");

    public Codes() {}

    public int code(int code) {
        if (code == 31337) {
            return 1;
        }
        return 0;
    }

    public int key(char c) {
        if (c == 'q') {
            return 1;
        }
        return 0;
    }

    public int window(int n) {
        if (n > 90000 && n < 90010) {
            return 1;
        }
        return 0;
    }

    public int op(int op) {
        switch (op) {
            case 777:
                return 1;
            case 4096:
                return 2;
            default:
                return 0;
        }
    }

    public int id(long id) {
        if (id == ID) {
            return 1;
        }
        return 0;
    }
}
