package suite;

/**
 * Results too long or too nested to write out: a table of escapes (a String[][] of up to 200
 * rows, as an escape table is), an encoding longer than 64 bytes, a square matrix.
 */
public final class Tables {
    private final int size;

    public Tables(int size) {
        this.size = Math.max(0, Math.min(size, 200));
    }

    public String[][] rows() {
        String[][] t = new String[size][2];
        for (int i = 0; i < size; i++) {
            t[i][0] = "&#" + (160 + i) + ";";
            t[i][1] = Character.toString((char) (160 + i));
        }
        return t;
    }

    public byte[] encode() {
        byte[] b = new byte[size + 70];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 7 + size);
        }
        return b;
    }

    public int[][] matrix() {
        int n = size % 12;
        int[][] m = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m[i][j] = i * j + size;
            }
        }
        return m;
    }
}
