package css;

/**
 * The example: `push(x)`, `push(y)`, then `top()` whose branch compares what was
 * pushed; the prefix calls' arguments are symbolic inputs, so the solver picks x and y.
 */
public class Stack {
    private final int[] elems = new int[4];
    private int size;

    public void push(int x) {
        if (size < elems.length) {
            elems[size++] = x;
        }
    }

    public int pop() {
        if (size == 0) {
            return -1;
        }
        return elems[--size];
    }

    public int top() {
        if (size == 0) {
            return -1;
        }
        int t = elems[size - 1];
        if (t == 7) {
            if (size > 1 && elems[size - 2] == t + 1) {
                return 78;
            }
            return 7;
        }
        return 0;
    }
}
