package budget;

/** Many methods without a branch: covered by the first sequences that call them. */
public class Flat {
    private int a, b, c, d;

    public Flat() {}

    public int getA() { return a; }
    public int getB() { return b; }
    public int getC() { return c; }
    public int getD() { return d; }
    public void setA(int v) { a = v; }
    public void setB(int v) { b = v; }
    public void setC(int v) { c = v; }
    public void setD(int v) { d = v; }
    public int sum() { return a + b + c + d; }
    public int product() { return a * b * c * d; }
    public void clear() { a = b = c = d = 0; }
    public Flat copy() { Flat f = new Flat(); f.a = a; f.b = b; f.c = c; f.d = d; return f; }
}
