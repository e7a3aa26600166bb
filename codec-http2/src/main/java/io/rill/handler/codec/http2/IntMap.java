package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.List;

/**
 * A map from {@code int} keys (stream ids) to non-null values, for the per-request bookkeeping of
 * {@link Http2Connection}: a {@code HashMap<Integer, V>} boxes every id above 127 and allocates a
 * node per entry, which under load was a fifth of the garbage of a request.
 *
 * <p>Open addressing with linear probing: a slot is free iff its value is null; the home slot of a
 * key is its Fibonacci hash (stream ids of one side are all odd or all even, so masking the low
 * bits would leave half the slots unused). Removal shifts the following entries of the probe run
 * back instead of leaving tombstones, so lookups never slow down as streams come and go. The load
 * factor stays at or under one half; the arrays exist only from the first entry on, so a
 * connection that never opens a stream pays for none.
 */
final class IntMap<V> {

    private static final int INITIAL_CAPACITY = 16;

    /** Keys by slot; meaningful only where {@link #values} is non-null. */
    private int[] keys;
    /** Values by slot, null for a free slot; length a power of two, or the array absent while empty. */
    private Object[] values;
    private int size;
    /** 32 minus log2 of the capacity: the shift that turns a hash into a slot. */
    private int shift;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean containsKey(int key) {
        return get(key) != null;
    }

    @SuppressWarnings("unchecked")
    V get(int key) {
        Object[] vals = values;
        if (vals == null) {
            return null;
        }
        int[] ks = keys;
        int mask = vals.length - 1;
        for (int i = home(key); vals[i] != null; i = (i + 1) & mask) {
            if (ks[i] == key) {
                return (V) vals[i];
            }
        }
        return null;
    }

    /** Maps {@code key} to {@code value} (not null) and returns the value it replaced, or null. */
    @SuppressWarnings("unchecked")
    V put(int key, V value) {
        if (value == null) {
            throw new NullPointerException("value");
        }
        if (values == null) {
            allocate(INITIAL_CAPACITY);
        } else if ((size + 1) * 2 > values.length) {
            grow();
        }
        Object[] vals = values;
        int mask = vals.length - 1;
        int i = home(key);
        for (; vals[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                V old = (V) vals[i];
                vals[i] = value;
                return old;
            }
        }
        keys[i] = key;
        vals[i] = value;
        size++;
        return null;
    }

    /** Removes {@code key}'s entry and returns its value, or null if there was none. */
    @SuppressWarnings("unchecked")
    V remove(int key) {
        Object[] vals = values;
        if (vals == null) {
            return null;
        }
        int[] ks = keys;
        int mask = vals.length - 1;
        int i = home(key);
        while (vals[i] != null && ks[i] != key) {
            i = (i + 1) & mask;
        }
        V old = (V) vals[i];
        if (old == null) {
            return null;
        }
        vals[i] = null;
        size--;
        // Close the gap: an entry further along the run moves into it unless its home slot lies
        // cyclically in (gap, entry], where a lookup starting at home would still reach it.
        for (int j = (i + 1) & mask; vals[j] != null; j = (j + 1) & mask) {
            int h = home(ks[j]);
            boolean reachable = i <= j ? i < h && h <= j : i < h || h <= j;
            if (!reachable) {
                ks[i] = ks[j];
                vals[i] = vals[j];
                vals[j] = null;
                i = j;
            }
        }
        return old;
    }

    /** The values, copied: the caller may change the map while it walks them. */
    @SuppressWarnings("unchecked")
    List<V> values() {
        List<V> out = new ArrayList<>(size);
        if (values != null) {
            for (Object v : values) {
                if (v != null) {
                    out.add((V) v);
                }
            }
        }
        return out;
    }

    void clear() {
        keys = null;
        values = null;
        size = 0;
    }

    private int home(int key) {
        return (key * 0x9E3779B9) >>> shift;
    }

    private void allocate(int capacity) {
        keys = new int[capacity];
        values = new Object[capacity];
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
    }

    @SuppressWarnings("unchecked")
    private void grow() {
        int[] oldKeys = keys;
        Object[] oldValues = values;
        allocate(oldValues.length * 2);
        size = 0;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) {
                put(oldKeys[i], (V) oldValues[i]);
            }
        }
    }
}
