package textof;

/**
 * The class under test: its factory returns a {@link Group}, an interface, whose object
 * (of a package-private class) spells its members in the pattern's order only through
 * toString(). A fault in that order (cli2's PatternBuilder, Defects4J Cli-7) shows nowhere
 * else: size() is the same.
 */
public final class Groups {
    private Groups() {
    }

    public static Group of(String pattern) {
        return new Members(pattern == null ? "" : pattern);
    }

    static final class Members implements Group {
        private final String letters;

        Members(String letters) {
            this.letters = letters;
        }

        @Override
        public int size() {
            return letters.length();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < letters.length(); i++) {
                sb.append(i == 0 ? "" : "|").append(letters.charAt(i));
            }
            return sb.append(']').toString();
        }
    }
}
