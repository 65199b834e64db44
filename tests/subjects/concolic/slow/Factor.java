package slow;

/** A branch whose condition is hard for a solver: factoring a 62-bit semiprime. */
public class Factor {
    public static int factor(long a, long b) {
        if (a > 1 && a < 4294967296L && b > a && b < 4294967296L) {
            if (a * b == 4611685975477714963L) {
                return 1;
            }
            return 2;
        }
        return 0;
    }
}
