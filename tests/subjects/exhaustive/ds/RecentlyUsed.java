package ds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most recently used names, least recent first, over an access-ordered LinkedHashMap and
 * nothing else: get(name) moves a present name to the most recent place, a mutation seen only
 * in the order of the map's entries (no counter changes with it). contains(name) reads the
 * same map without touching the order (LinkedHashMap.containsKey does not count as an
 * access): an observer.
 */
public class RecentlyUsed {
    private final LinkedHashMap<String, Integer> uses;

    public RecentlyUsed(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.uses = new LinkedHashMap<String, Integer>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > capacity;
            }
        };
    }

    public void use(String name, int weight) {
        uses.put(name, weight);
    }

    public Integer get(String name) {
        return uses.get(name);
    }

    public boolean contains(String name) {
        return uses.containsKey(name);
    }

    public int size() {
        return uses.size();
    }
}
