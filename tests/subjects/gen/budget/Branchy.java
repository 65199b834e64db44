package budget;

/**
 * One method with 20 branches that random arguments almost never take (a rotated, masked
 * value equal to a constant): they stay uncovered for the whole run.
 */
public class Branchy {
    public Branchy() {}

    public int score(int x) {
        int n = 0;
        if ((Integer.rotateLeft(x, 1) ^ 0x5bd1e995) == 305419896) { n += 1; }
        if ((Integer.rotateLeft(x, 2) ^ 0x5bd1e995) == 305427815) { n += 2; }
        if ((Integer.rotateLeft(x, 3) ^ 0x5bd1e995) == 305435734) { n += 3; }
        if ((Integer.rotateLeft(x, 4) ^ 0x5bd1e995) == 305443653) { n += 4; }
        if ((Integer.rotateLeft(x, 5) ^ 0x5bd1e995) == 305451572) { n += 5; }
        if ((Integer.rotateLeft(x, 6) ^ 0x5bd1e995) == 305459491) { n += 6; }
        if ((Integer.rotateLeft(x, 7) ^ 0x5bd1e995) == 305467410) { n += 7; }
        if ((Integer.rotateLeft(x, 8) ^ 0x5bd1e995) == 305475329) { n += 8; }
        if ((Integer.rotateLeft(x, 9) ^ 0x5bd1e995) == 305483248) { n += 9; }
        if ((Integer.rotateLeft(x, 10) ^ 0x5bd1e995) == 305491167) { n += 10; }
        if ((Integer.rotateLeft(x, 11) ^ 0x5bd1e995) == 305499086) { n += 11; }
        if ((Integer.rotateLeft(x, 12) ^ 0x5bd1e995) == 305507005) { n += 12; }
        if ((Integer.rotateLeft(x, 13) ^ 0x5bd1e995) == 305514924) { n += 13; }
        if ((Integer.rotateLeft(x, 14) ^ 0x5bd1e995) == 305522843) { n += 14; }
        if ((Integer.rotateLeft(x, 15) ^ 0x5bd1e995) == 305530762) { n += 15; }
        if ((Integer.rotateLeft(x, 16) ^ 0x5bd1e995) == 305538681) { n += 16; }
        if ((Integer.rotateLeft(x, 17) ^ 0x5bd1e995) == 305546600) { n += 17; }
        if ((Integer.rotateLeft(x, 18) ^ 0x5bd1e995) == 305554519) { n += 18; }
        if ((Integer.rotateLeft(x, 19) ^ 0x5bd1e995) == 305562438) { n += 19; }
        if ((Integer.rotateLeft(x, 20) ^ 0x5bd1e995) == 305570357) { n += 20; }
        return n;
    }
}
