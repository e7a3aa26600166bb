package io.rill.handler.codec;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

import io.rill.util.concurrent.FastThreadLocal;

/**
 * The list a decoder adds its messages to. One is taken from a per-thread pool for every read
 * and recycled after its messages went downstream, so decoding a message allocates no list
 * (a plain {@code ArrayList} per read would be garbage on the hot path). Nested decoders on one
 * thread simply take another list from the pool. The pool is a plain per-thread stack of a few
 * lists, not an {@link io.rill.util.ObjectPool}: a list never changes threads, so it needs no
 * cross-thread hand-off and no atomic claim/recycle per read.
 *
 * <p>Only {@code add}, {@code get}, {@code set}, {@code remove}, {@code clear} and {@code size}
 * are meant for decoders; iteration works but the decoder classes index directly.
 */
public final class CodecOutputList extends AbstractList<Object> implements RandomAccess {

    /** Free lists per thread: enough for decoders nested a few deep; more are simply garbage. */
    private static final int LISTS_PER_THREAD = 16;
    private static final FastThreadLocal<ThreadPool> POOLS = new FastThreadLocal<>() {
        @Override
        protected ThreadPool initialValue() {
            return new ThreadPool();
        }
    };
    /** A list that grew past this many slots while decoding a burst gives the array back on recycle. */
    private static final int MAX_RETAINED_CAPACITY = 1024;

    /** One thread's free lists; touched only by that thread. */
    private static final class ThreadPool {
        final Thread owner = Thread.currentThread();
        final CodecOutputList[] free = new CodecOutputList[LISTS_PER_THREAD];
        int count;
    }

    private final ThreadPool home;
    /** elements[0..size) are the messages, the rest null. */
    private Object[] elements = new Object[16];
    private int size;
    /** True once anything was added since the list was taken from the pool, even if it was removed again. */
    private boolean insertSinceRecycled;
    /** True while the list sits in its pool: catches a second recycle. */
    private boolean pooled;

    private CodecOutputList(ThreadPool home) {
        this.home = home;
    }

    /**
     * An empty list from the calling thread's pool; give it back with {@link #recycle()}.
     *
     * @return an empty list owned by the calling thread
     */
    public static CodecOutputList newInstance() {
        ThreadPool pool = POOLS.get();
        if (pool.count == 0) {
            return new CodecOutputList(pool);
        }
        CodecOutputList list = pool.free[--pool.count];
        pool.free[pool.count] = null;
        list.pooled = false;
        return list;
    }

    @Override
    public Object get(int index) {
        checkIndex(index);
        return elements[index];
    }

    /** {@link #get} without the bounds check, for loops bounded by {@link #size()}. */
    Object getUnchecked(int index) {
        return elements[index];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean add(Object element) {
        if (element == null) {
            throw new NullPointerException("a decoder added null to its output");
        }
        if (size == elements.length) {
            elements = Arrays.copyOf(elements, size << 1);
        }
        elements[size++] = element;
        insertSinceRecycled = true;
        return true;
    }

    @Override
    public Object set(int index, Object element) {
        checkIndex(index);
        if (element == null) {
            throw new NullPointerException("element");
        }
        Object old = elements[index];
        elements[index] = element;
        insertSinceRecycled = true;
        return old;
    }

    @Override
    public void add(int index, Object element) {
        if (index < 0 || index > size) {
            throw new IndexOutOfBoundsException("index " + index + " (size " + size + ")");
        }
        add(element); // grows and counts; then move it into place
        System.arraycopy(elements, index, elements, index + 1, size - 1 - index);
        elements[index] = element;
    }

    @Override
    public Object remove(int index) {
        checkIndex(index);
        Object old = elements[index];
        System.arraycopy(elements, index + 1, elements, index, size - index - 1);
        elements[--size] = null;
        return old;
    }

    @Override
    public void clear() {
        // Keep insertSinceRecycled: the caller cleared after passing the messages on.
        Arrays.fill(elements, 0, size, null);
        size = 0;
    }

    /**
     * True if anything was added since this list came from the pool.
     *
     * @return whether any element was added since the list was taken from the pool
     */
    public boolean insertSinceRecycled() {
        return insertSinceRecycled;
    }

    /** Empties the list and returns it to the pool; the caller must not touch it afterwards. */
    public void recycle() {
        if (pooled) {
            throw new IllegalStateException("output list recycled twice");
        }
        clear();
        insertSinceRecycled = false;
        if (elements.length > MAX_RETAINED_CAPACITY) {
            elements = new Object[16];
        }
        ThreadPool pool = home;
        if (pool.owner == Thread.currentThread() && pool.count < LISTS_PER_THREAD) {
            pooled = true;
            pool.free[pool.count++] = this;
        }
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " (size " + size + ")");
        }
    }
}
