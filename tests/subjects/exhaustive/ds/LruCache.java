package ds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A least-recently-used cache over an access-ordered LinkedHashMap: get moves the entry it
 * finds to the end (a mutation), and the hits/misses counters grow with every get.
 */
public class LruCache {
    private final int capacity;
    private final LinkedHashMap<String, Integer> map;
    private int hits;
    private int misses;

    public LruCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.map = new LinkedHashMap<String, Integer>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > LruCache.this.capacity;
            }
        };
    }

    public void put(String key, int value) {
        map.put(key, value);
    }

    public Integer get(String key) {
        Integer v = map.get(key);
        if (v == null) {
            misses++;
        } else {
            hits++;
        }
        return v;
    }

    public String eldest() {
        return map.isEmpty() ? null : map.keySet().iterator().next();
    }

    public int size() {
        return map.size();
    }

    public int hits() {
        return hits;
    }

    public int misses() {
        return misses;
    }
}
