package blame;

import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A union view of two sets, and an identity set like commons-collections' SetUtils
 * .newIdentityHashSet() (Collections.newSetFromMap over an IdentityHashMap: its hashCode
 * sums identity hashes, breaking Set's contract as documented). union(identity, identity)
 * equals the identity set with another hashCode: the argument's doing, no error test
 * ("argument-breaks-contract"; the identity set's own side is a JDK value, "jdk-value").
 */
public class Union {
    private Union() {
    }

    /** A set that compares its elements by identity (copies of the strings given). */
    public static Set<String> identitySet(String a, String b) {
        Set<String> s = Collections.newSetFromMap(new IdentityHashMap<>());
        s.add(new String(a));
        s.add(new String(b));
        return s;
    }

    /** The elements of a, then those of b not in a. */
    public static Set<String> union(Set<String> a, Set<String> b) {
        return new AbstractSet<String>() {
            @Override
            public Iterator<String> iterator() {
                List<String> order = new ArrayList<>(a);
                for (String s : b) {
                    if (!a.contains(s)) {
                        order.add(s);
                    }
                }
                return order.iterator();
            }

            @Override
            public int size() {
                int n = a.size();
                for (String s : b) {
                    if (!a.contains(s)) {
                        n++;
                    }
                }
                return n;
            }

            @Override
            public boolean contains(Object o) {
                return a.contains(o) || b.contains(o);
            }
        };
    }
}
