package io.rill.util.concurrent;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread-local variable that is an array read on a {@link FastThreadLocalThread} (Rill's
 * event loops run on those) and an ordinary {@link ThreadLocal} lookup plus an array read
 * anywhere else.
 *
 * <p>Each instance takes a fresh index at construction and never gives it back, so create
 * these as {@code static final} fields, not per object: every thread's map grows to the
 * largest index in use.
 *
 * <p>A thread's values are dropped by {@link #removeAll()}, which also calls
 * {@link #onRemoval(Object)} for each. Threads created by a {@link FastThreadLocalThread}
 * constructor with a task do this when the task returns; executors running tasks on other
 * threads wrap them with {@link #runWithCleanup(Runnable)}.
 *
 * @param <V> the value type; null is a legal value
 */
public class FastThreadLocal<V> {

    private static final AtomicInteger nextIndex = new AtomicInteger();

    /** This variable's slot in every thread's {@link InternalThreadLocalMap}. */
    private final int index;

    /**
     * Creates a variable with its own slot in every thread's table; create them as static fields, since slots
     * are never reused.
     *
     * @throws IllegalStateException if too many variables were created
     */
    public FastThreadLocal() {
        int i = nextIndex.getAndIncrement();
        if (i < 0 || i > Integer.MAX_VALUE - 16) { // indices are never reused, so this is a misuse
            throw new IllegalStateException("too many FastThreadLocal instances; create them as static fields");
        }
        index = i;
    }

    /** {@return the current thread's value, initialised by {@link #initialValue()} on first access} */
    @SuppressWarnings("unchecked")
    public final V get() {
        InternalThreadLocalMap map = InternalThreadLocalMap.get();
        Object value = map.get(index);
        if (value != InternalThreadLocalMap.UNSET) {
            return (V) value;
        }
        V initial = initialValue();
        map.set(index, this, initial);
        return initial;
    }

    /**
     * Sets the current thread's value; null is stored as a value, use {@link #remove()} to unset.
     *
     * @param value the new value for the current thread
     */
    public final void set(V value) {
        InternalThreadLocalMap.get().set(index, this, value);
    }

    /** {@return true if the current thread has a value (set, or initialised by {@link #get()})} */
    public final boolean isSet() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfExists();
        return map != null && map.get(index) != InternalThreadLocalMap.UNSET;
    }

    /**
     * Removes the current thread's value and passes it to {@link #onRemoval(Object)}; the next
     * {@link #get()} initialises it again. Does nothing if the value is not set.
     */
    @SuppressWarnings("unchecked")
    public final void remove() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfExists();
        if (map == null) {
            return;
        }
        Object old = map.remove(index);
        if (old != InternalThreadLocalMap.UNSET) {
            onRemoval((V) old);
        }
    }

    /** {@return the value a thread sees before setting one} Returns null unless overridden. */
    protected V initialValue() {
        return null;
    }

    /**
     * Called on the owning thread with a value that {@link #remove()} or {@link #removeAll()}
     * just removed, for example to return pooled memory. Does nothing unless overridden.
     *
     * @param value the removed value
     */
    protected void onRemoval(V value) {
    }

    /**
     * Removes every value of the current thread, calling each variable's {@code onRemoval}, and
     * drops the thread's map. If some {@code onRemoval} throws, the others still run and the
     * first exception is rethrown at the end with the rest suppressed.
     */
    public static void removeAll() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfExists();
        if (map == null) {
            return;
        }
        RuntimeException failure = null;
        try {
            for (FastThreadLocal<?> variable : map.setVariables()) {
                try {
                    variable.remove();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
        } finally {
            InternalThreadLocalMap.destroy();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** {@return the number of variables with a value on the current thread} */
    public static int size() {
        InternalThreadLocalMap map = InternalThreadLocalMap.getIfExists();
        return map == null ? 0 : map.size();
    }

    /**
     * Wraps {@code task} so {@link #removeAll()} runs after it, however it ends. Executors wrap
     * the run loop of a thread they own, so values die with the thread instead of leaking
     * whatever they hold (pooled buffers, caches) for as long as the thread object lives.
     *
     * @param task the thread's work
     * @return a task that runs {@code task} and then clears the thread's values
     */
    public static Runnable runWithCleanup(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (task instanceof CleanupTask) {
            return task;
        }
        return new CleanupTask(task);
    }

    private record CleanupTask(Runnable task) implements Runnable {
        @Override
        public void run() {
            try {
                task.run();
            } finally {
                removeAll();
            }
        }
    }
}
