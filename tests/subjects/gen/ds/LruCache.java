package ds;

import java.util.LinkedHashMap;
import java.util.Map;

/** A least-recently-used cache with a fixed capacity. */
public class LruCache<K, V> {
    private final int capacity;
    private final LinkedHashMap<K, V> map;
    private int evictions;

    public LruCache(int capacity) {
        if (capacity <= 0) throw new IllegalArgumentException("capacity must be positive");
        this.capacity = capacity;
        this.map = new LinkedHashMap<>(16, 0.75f, true);
    }

    public V get(K key) { return map.get(key); }

    public V put(K key, V value) {
        V old = map.put(key, value);
        if (map.size() > capacity) {
            K eldest = map.keySet().iterator().next();
            map.remove(eldest);
            evictions++;
        }
        return old;
    }

    public boolean containsKey(K key) { return map.containsKey(key); }
    public int size() { return map.size(); }
    public int getEvictions() { return evictions; }
    public int getCapacity() { return capacity; }
}
