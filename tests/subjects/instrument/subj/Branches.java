package subj;

/** Instrumentation subjects. Comments "//@name" mark lines the tests look up. */
public class Branches {
    public static int sign(int x) {
        if (x > 0) //@sign-if
            return 1; //@sign-pos
        return -1; //@sign-neg
    }

    public static String table(int x) {
        switch (x) { //@table-switch
            case 1: return "one"; //@table-1
            case 2: return "two"; //@table-2
            case 3: return "three"; //@table-3
            default: return "many"; //@table-default
        }
    }

    public static int lookup(int x) {
        switch (x) { //@lookup-switch
            case 10: return 1; //@lookup-10
            case 1000: return 2; //@lookup-1000
            case 100000: return 3; //@lookup-100000
            default: return 0; //@lookup-default
        }
    }

    public static int sum(int n) {
        int s = 0; //@sum-init
        for (int i = 0; i < n; i++) { //@sum-for
            s += i; //@sum-body
        }
        return s; //@sum-ret
    }

    public static int tryIt(String s) {
        int r = 0; //@try-init
        try {
            r = Integer.parseInt(s); //@try-parse
        } catch (NumberFormatException e) { //@try-catch
            r = -1; //@try-neg
        } finally {
            r++; //@try-finally
        }
        return r; //@try-ret
    }

    public static int tern(int a, int b) {
        return a > 0 ? (b > 0 ? 1 : 2) : (b > 0 ? 3 : 4); //@tern
    }

    public static int str(String s) {
        switch (s) { //@str-switch
            case "a": return 1; //@str-a
            case "b": return 2; //@str-b
            default: return 0; //@str-default
        }
    }

    public static Object make(int x) {
        return new StringBuilder(x > 0 ? "p" : "n"); //@make
    }

    public static String shared(int x) {
        switch (x) { //@shared-switch
            case 1:
            case 2:
                return "low"; //@shared-low
            case 4:
                return "four"; //@shared-four
            default:
                return "other"; //@shared-default
        }
    }

    /** javac puts the `goto` that ends the first branch on the else-if's line, so the
     *  `instanceof Integer` test is entered in the middle of its line. */
    public static int kind(Object o, int n) {
        int r = 0; //@kind-init
        if (o instanceof String) { //@kind-if
            final String s = (String) o; //@kind-cast
            while (r < s.length()) { //@kind-while
                r += n; //@kind-add
            }
        } else if (o instanceof Integer) { //@kind-elseif
            r = 2; //@kind-int
        }
        return r; //@kind-ret
    }
}
