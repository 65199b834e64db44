package cmd;

/**
 * A parser of small commands whose branches need specific values: command words, counts
 * compared against constants, single-character flags. Plus many branch-free methods that
 * dilute unguided random choice (coverage guidance should prefer {@link #exec}).
 */
public class CommandParser {
    private int state;
    private int total;

    public CommandParser() {}

    public int exec(String cmd, int n, char flag) {
        if (cmd == null) {
            return -1;
        }
        int r = 0;
        switch (cmd) {
            case "GET":
                r = n > 10 ? 1 : 2;
                break;
            case "PUT":
                if (n == 100) {
                    r = 3;
                } else if (n < 0) {
                    r = 4;
                } else {
                    r = 5;
                }
                break;
            case "DEL":
                r = flag == 'f' ? 6 : flag == 'r' ? 7 : 8;
                break;
            case "LIST":
                r = n % 2 == 0 ? 9 : 10;
                break;
            case "QUIT":
                state = state == 0 ? 1 : 2;
                r = 11;
                break;
            default:
                r = cmd.isEmpty() ? 12 : 13;
        }
        total += r;
        return r;
    }

    public int getState() { return state; }
    public int getTotal() { return total; }
    public int a() { return 1; }
    public int b() { return 2; }
    public int c() { return 3; }
    public int d() { return 4; }
    public int e() { return 5; }
    public int f() { return 6; }
    public int g() { return 7; }
    public int h() { return 8; }
    public int i() { return 9; }
    public int j() { return 10; }
    public int k() { return 11; }
    public int l() { return 12; }
    public int m() { return 13; }
    public int n() { return 14; }
    public int o() { return 15; }
    public int p() { return 16; }
    public int q() { return 17; }
    public int r() { return 18; }
    public int s() { return 19; }
    public int t() { return 20; }
    public static int u(int x) { return x + 1; }
    public static int v(int x) { return x + 2; }
    public static int w(int x) { return x + 3; }
    public static String x(String s) { return s + "x"; }
    public static String y(String s) { return s + "y"; }
    public static String z(String s) { return s + "z"; }
}
