package containers;

/**
 * A bounded stack of distinct ints (pushing a member moves it to the top; pushing onto a
 * full stack drops the bottom): our version of the UBStack of the Rostra/Symstra
 * benchmarks (Stotts et al.), written from its well-known behaviour.
 */
public class UBStack {
    private final int[] elems;
    private int numberOfElements;
    private final int max;

    public UBStack() {
        numberOfElements = 0;
        max = 3;
        elems = new int[max];
    }

    public void push(int k) {
        int index;
        boolean alreadyMember = false;
        for (index = 0; index < numberOfElements; index++) {
            if (k == elems[index]) {
                alreadyMember = true;
                break;
            }
        }
        if (alreadyMember) {
            for (int j = index; j < numberOfElements - 1; j++) {
                elems[j] = elems[j + 1];
            }
            elems[numberOfElements - 1] = k;
        } else if (numberOfElements < max) {
            elems[numberOfElements] = k;
            numberOfElements++;
        } else {
            for (int j = 0; j < numberOfElements - 1; j++) {
                elems[j] = elems[j + 1];
            }
            elems[numberOfElements - 1] = k;
        }
    }

    public void pop() {
        if (numberOfElements > 0) {
            numberOfElements--;
        }
    }

    public int top() {
        if (numberOfElements < 1) {
            return -1;
        }
        return elems[numberOfElements - 1];
    }

    public boolean isEmpty() {
        return numberOfElements == 0;
    }

    public boolean isFull() {
        return numberOfElements == max;
    }
}
