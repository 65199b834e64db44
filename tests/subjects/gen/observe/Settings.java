package observe;

/**
 * Thirteen getters before `getZone()` by name, and one setter, `setZone(int)`, whose effect only
 * `getZone()` shows. A test of `setZone` that asserts the first twelve getters by name pins
 * nothing the call did; jforge asserts the getters that read the fields the call writes first.
 */
public class Settings {
    private int a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11, l = 12, m = 13;
    private int zone;

    public int getA() { return a; }
    public int getB() { return b; }
    public int getC() { return c; }
    public int getD() { return d; }
    public int getE() { return e; }
    public int getF() { return f; }
    public int getG() { return g; }
    public int getH() { return h; }
    public int getI() { return i; }
    public int getJ() { return j; }
    public int getK() { return k; }
    public int getL() { return l; }
    public int getM() { return m; }
    public int getZone() { return zone; }

    public void setZone(int z) {
        store(z * 2);
    }

    private void store(int v) {
        zone = v;
    }
}
