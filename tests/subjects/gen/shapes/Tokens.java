package shapes;

/**
 * A token classifier whose branches each need an input of a particular shape, none of which is
 * a constant of this class: a character beyond the BMP (a surrogate pair), a number with an
 * exponent, a number past int's range, a hex number. Random strings from the class's constants
 * ("", "?") and jforge's defaults reach none of them; mutants of them (prefixes, suffixes,
 * inserted characters, known shapes) do.
 */
public final class Tokens {
    private Tokens() {}

    public static String kind(String s) {
        if (s == null || s.isEmpty()) {
            return "?";
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isHighSurrogate(s.charAt(i))) {
                return "astral";
            }
        }
        try {
            long v = Long.decode(s);
            if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
                return "wide";
            }
            if (s.length() > 2 && s.charAt(1) == 'x') {
                return "hex";
            }
            return "int";
        } catch (NumberFormatException e) {
            // not an integer
        }
        try {
            Double.parseDouble(s);
            return "real";
        } catch (NumberFormatException e) {
            return "word";
        }
    }
}
