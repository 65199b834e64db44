package cmd;

/** Opens only for a word that is not a constant of the class file (comparison logging). */
public class Lock {
    public Lock() {}

    private static String secret() {
        return new StringBuilder("emases").reverse().toString();
    }

    public boolean open(String word) {
        if (word.equals(secret())) {
            return true;
        }
        return false;
    }
}
