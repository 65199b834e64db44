package blame;

import java.util.AbstractCollection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * A shelf of labels whose labels() view is broken the way commons-collections'
 * DualTreeBidiMap.values() is: a Set built on AbstractCollection without Set's equals and
 * hashCode (identity), so copy().equals(labels()) is true and labels().equals(copy()) false, a
 * planted defect of Shelf$Labels. readOnlyLabels() wraps the view in the library's own
 * decorator (ReadOnlySet, made only here, as UnmodifiableSortedBidiMap.values() wraps the
 * dual map's view) and values() in the JDK's: both answer as the view they hold, against
 * copy() and against the view itself (readOnlyLabels().equals(labels()) is true, the reverse
 * false: the view's answer is the wrong one), so the defect is the view's alone, one error
 * test for Shelf$Labels ("held-collection-breaks-contract" for the decorators).
 */
public class Shelf {
    private final TreeSet<String> items = new TreeSet<>();
    private Labels labels;

    public void add(String label) {
        items.add(label);
    }

    /** The labels, live (the broken view, made once, as DualTreeBidiMap's values view). */
    public Set<String> labels() {
        if (labels == null) {
            labels = new Labels();
        }
        return labels;
    }

    /** The labels, read-only, through the library's decorator (of the same view). */
    public Set<String> readOnlyLabels() {
        return new ReadOnlySet<>(labels());
    }

    /** The labels, read-only, through the JDK's decorator. */
    public Set<String> values() {
        return Collections.unmodifiableSet(labels());
    }

    /** A copy of the labels (a HashSet). */
    public Set<String> copy() {
        return new HashSet<>(items);
    }

    /** The bug: a Set without Set's equals and hashCode (a live view of the shelf). */
    private final class Labels extends AbstractCollection<String> implements Set<String> {
        @Override
        public Iterator<String> iterator() {
            return Collections.unmodifiableSet(items).iterator();
        }

        @Override
        public int size() {
            return items.size();
        }
    }
}
