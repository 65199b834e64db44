package configure;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The class under test. Its two checks are reached only with arguments configured after they
 * were made: options holding a required option (`Opt.setRequired(true)`, `Opts.add(opt)`)
 * and a format with a header (`Format.PLAIN.withHeader(..)`). Made plain (`new Opts()`,
 * `Format.PLAIN`), the arguments never reach them.
 */
public class Checker {
    private Checker() {
    }

    /** "ok", or an IllegalStateException naming the required options missing from args. */
    public static String check(Opts opts, String[] args) {
        Set<String> given = new HashSet<>();
        if (args != null) {
            for (String a : args) {
                given.add(a);
            }
        }
        List<String> missing = new ArrayList<>();
        for (Opt o : opts.list()) {
            if (o.isRequired() && !given.contains("-" + o.getName())) {
                missing.add(o.getName());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("missing required: " + String.join(", ", missing));
        }
        return "ok";
    }

    /** The number of columns of a line, checking that the format's header has no duplicate. */
    public static int columns(String line, Format format) {
        String[] header = format.header();
        if (header != null) {
            Set<String> seen = new HashSet<>();
            for (String h : header) {
                if (!seen.add(h)) {
                    throw new IllegalArgumentException("duplicate header: " + h);
                }
            }
        }
        return line.split(String.valueOf(format.getDelimiter()), -1).length;
    }
}
