package configure;

import java.util.ArrayList;
import java.util.List;

/** Options: empty when made, filled by a fluent adder that takes an object. */
public class Opts {
    private final List<Opt> all = new ArrayList<>();

    public Opts add(Opt opt) {
        if (opt != null) {
            all.add(opt);
        }
        return this;
    }

    public int size() {
        return all.size();
    }

    List<Opt> list() {
        return all;
    }
}
