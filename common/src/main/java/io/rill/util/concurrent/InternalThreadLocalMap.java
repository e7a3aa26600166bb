package io.rill.util.concurrent;

import java.util.Arrays;

/**
 * The per-thread store behind {@link FastThreadLocal}: slot {@code i} holds the value of the
 * variable with index {@code i}, or {@link #UNSET}. A {@link FastThreadLocalThread} carries its
 * map in a field; any other thread finds it through one ordinary {@link ThreadLocal}.
 *
 * <pre>
 *   values: [ v0 | UNSET | v2 | UNSET | ... ]   grown by doubling to fit the largest index
 *   owners: [ t0 | null  | t2 | null  | ... ]   the FastThreadLocal that set each slot
 * </pre>
 *
 * {@code owners} lets {@link FastThreadLocal#removeAll()} call each variable's
 * {@code onRemoval} without a global registry of variables. Only the owning thread touches
 * a map, so nothing here is synchronised.
 */
final class InternalThreadLocalMap {

    /** Marks an empty slot; distinct from null, which is a legal value. */
    static final Object UNSET = new Object();

    private static final int INITIAL_CAPACITY = 32;
    private static final ThreadLocal<InternalThreadLocalMap> slowMap = new ThreadLocal<>();

    private Object[] values = newValues(INITIAL_CAPACITY);
    private FastThreadLocal<?>[] owners = new FastThreadLocal<?>[INITIAL_CAPACITY];
    /** Number of slots that are not {@link #UNSET}. */
    private int size;

    private InternalThreadLocalMap() {
    }

    /** The current thread's map, created on first use. */
    static InternalThreadLocalMap get() {
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread fast) {
            InternalThreadLocalMap map = fast.threadLocalMap();
            if (map == null) {
                map = new InternalThreadLocalMap();
                fast.setThreadLocalMap(map);
            }
            return map;
        }
        InternalThreadLocalMap map = slowMap.get();
        if (map == null) {
            map = new InternalThreadLocalMap();
            slowMap.set(map);
        }
        return map;
    }

    /** The current thread's map, or null if it never needed one. */
    static InternalThreadLocalMap getIfExists() {
        Thread thread = Thread.currentThread();
        return thread instanceof FastThreadLocalThread fast ? fast.threadLocalMap() : slowMap.get();
    }

    /** Detaches the current thread's map so it can be collected. */
    static void destroy() {
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread fast) {
            fast.setThreadLocalMap(null);
        } else {
            slowMap.remove();
        }
    }

    Object get(int index) {
        Object[] v = values;
        return index < v.length ? v[index] : UNSET;
    }

    /** Stores {@code value} for {@code owner}; returns the previous value or {@link #UNSET}. */
    Object set(int index, FastThreadLocal<?> owner, Object value) {
        if (index >= values.length) {
            grow(index);
        }
        Object old = values[index];
        values[index] = value;
        owners[index] = owner;
        if (old == UNSET) {
            size++;
        }
        return old;
    }

    /** Empties the slot; returns the previous value or {@link #UNSET}. */
    Object remove(int index) {
        Object[] v = values;
        if (index >= v.length) {
            return UNSET;
        }
        Object old = v[index];
        if (old != UNSET) {
            v[index] = UNSET;
            owners[index] = null;
            size--;
        }
        return old;
    }

    int size() {
        return size;
    }

    /** The variables that currently have a value, in index order. */
    FastThreadLocal<?>[] setVariables() {
        FastThreadLocal<?>[] result = new FastThreadLocal<?>[size];
        int n = 0;
        FastThreadLocal<?>[] o = owners;
        for (int i = 0; i < o.length && n < result.length; i++) {
            if (o[i] != null) {
                result[n++] = o[i];
            }
        }
        return n == result.length ? result : Arrays.copyOf(result, n);
    }

    private void grow(int index) {
        int capacity = values.length;
        while (capacity <= index) {
            capacity <<= 1;
            if (capacity <= 0) {
                throw new IllegalStateException("FastThreadLocal index too large: " + index);
            }
        }
        Object[] grown = Arrays.copyOf(values, capacity);
        Arrays.fill(grown, values.length, capacity, UNSET);
        values = grown;
        owners = Arrays.copyOf(owners, capacity);
    }

    private static Object[] newValues(int capacity) {
        Object[] v = new Object[capacity];
        Arrays.fill(v, UNSET);
        return v;
    }
}
