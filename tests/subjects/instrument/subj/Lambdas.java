package subj;

import java.util.function.IntPredicate;

public class Lambdas {
    public static IntPredicate positive() {
        return x -> x > 0; //@lambda
    }

    public static boolean test(int v) {
        return positive().test(v); //@lambda-test
    }

    public abstract static class Shape {
        public abstract double area();

        public native int nativeThing();
    }
}
