package io.rill.util;

import io.rill.util.concurrent.FastThreadLocal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A pool of small, short-lived objects (per-message state, write requests) that are cheaper to
 * reuse than to allocate and collect at millions per second.
 *
 * <p>Each thread has its own stack of free objects, so {@link #get()} and a recycle on the
 * same thread take no lock. An object recycled on another thread goes to a bounded queue owned
 * by the thread that took it; that thread drains the queue when its stack runs dry. Objects
 * beyond either bound (the stack's {@code maxCapacityPerThread}, the queue's
 * {@code maxCrossThreadRecycles}) are simply left to the garbage collector.
 *
 * <pre>{@code
 * final class WriteRequest {
 *     private static final ObjectPool<WriteRequest> POOL = ObjectPool.newPool(WriteRequest::new);
 *     private final ObjectPool.Handle<WriteRequest> handle;
 *     private WriteRequest(ObjectPool.Handle<WriteRequest> handle) { this.handle = handle; }
 *     static WriteRequest get() { return POOL.get(); }
 *     void recycle() { clearFields(); handle.recycle(this); }
 * }
 * }</pre>
 *
 * @param <T> the pooled type
 */
public final class ObjectPool<T> {

    /**
     * Returns one pooled object to its pool. Each object gets its own handle at creation.
     *
     * @param <T> the type of the pooled object
     */
    public interface Handle<T> {
        /**
         * Puts {@code self} back; the caller must not touch it afterwards.
         *
         * @throws IllegalStateException if it was already recycled since it was last taken
         * @param self the object this handle belongs to
         */
        void recycle(T self);
    }

    /**
     * Creates a pooled object that keeps {@code handle} to recycle itself.
     *
     * @param <T> the type of pooled objects
     */
    @FunctionalInterface
    public interface ObjectCreator<T> {
        /**
         * Makes a new object when the pool is empty; it must keep {@code handle} to recycle itself.
         *
         * @param handle the handle the new object recycles through
         * @return the new object
         */
        T newObject(Handle<T> handle);
    }

    private final ObjectCreator<T> creator;
    private final int maxCapacityPerThread;
    private final int maxCrossThreadRecycles;
    private final FastThreadLocal<LocalPool<T>> localPools = new FastThreadLocal<>() {
        @Override
        protected LocalPool<T> initialValue() {
            return new LocalPool<>(ObjectPool.this, Thread.currentThread());
        }

        @Override
        protected void onRemoval(LocalPool<T> pool) {
            pool.owner = null; // a dead thread's queue must stop accepting objects
        }
    };

    private ObjectPool(ObjectCreator<T> creator, int maxCapacityPerThread, int maxCrossThreadRecycles) {
        this.creator = Objects.requireNonNull(creator, "creator");
        if (maxCapacityPerThread < 0 || maxCrossThreadRecycles < 0) {
            throw new IllegalArgumentException("negative bound: maxCapacityPerThread " + maxCapacityPerThread
                    + ", maxCrossThreadRecycles " + maxCrossThreadRecycles);
        }
        this.maxCapacityPerThread = maxCapacityPerThread;
        this.maxCrossThreadRecycles = Math.min(maxCrossThreadRecycles, maxCapacityPerThread);
    }

    /**
     * A pool with the bounds from {@link RillProperties}.
     *
     * @param <T> the type of pooled objects
     * @param creator makes objects when the pool is empty
     * @return the new pool
     */
    public static <T> ObjectPool<T> newPool(ObjectCreator<T> creator) {
        return newPool(creator, RillProperties.OBJECT_POOL_MAX_CAPACITY_PER_THREAD,
                RillProperties.OBJECT_POOL_MAX_CROSS_THREAD_RECYCLES);
    }

    /**
     * A pool keeping at most the given numbers of free objects per thread; 0 capacity disables pooling.
     *
     * @param <T> the type of pooled objects
     * @param creator makes objects when the pool is empty
     * @param maxCapacityPerThread free objects kept per thread
     * @param maxCrossThreadRecycles objects recycled by other threads kept waiting for the owner
     * @return the new pool
     */
    public static <T> ObjectPool<T> newPool(ObjectCreator<T> creator, int maxCapacityPerThread,
                                            int maxCrossThreadRecycles) {
        return new ObjectPool<>(creator, maxCapacityPerThread, maxCrossThreadRecycles);
    }

    /** {@return a free object of this thread's stack, or a new one} The caller owns it until it recycles it. */
    public T get() {
        if (maxCapacityPerThread == 0) {
            return creator.newObject(self -> { });
        }
        LocalPool<T> local = localPools.get();
        PooledHandle<T> handle = local.pop();
        if (handle == null) {
            handle = new PooledHandle<>(local);
            handle.value = creator.newObject(handle);
        }
        handle.claim();
        return handle.value;
    }

    /** Free objects waiting on the calling thread's stack (not counting cross-thread recycles). */
    int localSize() {
        return localPools.get().size;
    }

    /**
     * One thread's free objects. {@code stack} and {@code size} are touched only by the owner;
     * other threads only offer to {@code crossThread}, created on the first such recycle.
     */
    private static final class LocalPool<T> {
        private static final VarHandle CROSS_THREAD;

        static {
            try {
                CROSS_THREAD = MethodHandles.lookup().findVarHandle(LocalPool.class, "crossThread",
                        ArrayBlockingQueue.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final ObjectPool<T> pool;
        /** The thread whose stack this is; null once its thread-locals were removed. */
        volatile Thread owner;
        @SuppressWarnings("unchecked")
        private PooledHandle<T>[] stack = (PooledHandle<T>[]) new PooledHandle<?>[16];
        private int size;
        @SuppressWarnings("unused") // accessed through CROSS_THREAD
        private volatile ArrayBlockingQueue<PooledHandle<T>> crossThread;

        LocalPool(ObjectPool<T> pool, Thread owner) {
            this.pool = pool;
            this.owner = owner;
        }

        PooledHandle<T> pop() {
            if (size == 0 && !drainCrossThread()) {
                return null;
            }
            PooledHandle<T> handle = stack[--size];
            stack[size] = null;
            return handle;
        }

        void recycle(PooledHandle<T> handle) {
            Thread current = Thread.currentThread();
            if (current == owner) {
                push(handle);
            } else if (owner != null && pool.maxCrossThreadRecycles > 0) {
                crossThreadQueue().offer(handle); // false when full: the object is dropped
            }
        }

        private void push(PooledHandle<T> handle) {
            if (size == pool.maxCapacityPerThread) {
                return;
            }
            if (size == stack.length) {
                stack = Arrays.copyOf(stack, Math.min(stack.length * 2, pool.maxCapacityPerThread));
            }
            stack[size++] = handle;
        }

        private boolean drainCrossThread() {
            ArrayBlockingQueue<PooledHandle<T>> queue = crossThread;
            PooledHandle<T> handle;
            while (queue != null && size < pool.maxCapacityPerThread && (handle = queue.poll()) != null) {
                push(handle);
            }
            return size > 0;
        }

        @SuppressWarnings("unchecked")
        private ArrayBlockingQueue<PooledHandle<T>> crossThreadQueue() {
            ArrayBlockingQueue<PooledHandle<T>> queue = crossThread;
            if (queue == null) {
                queue = new ArrayBlockingQueue<>(pool.maxCrossThreadRecycles);
                if (!CROSS_THREAD.compareAndSet(this, null, queue)) {
                    queue = (ArrayBlockingQueue<PooledHandle<T>>) CROSS_THREAD.getVolatile(this);
                }
            }
            return queue;
        }
    }

    /** Binds a pooled object to the thread that created it; {@code state} catches double recycling. */
    private static final class PooledHandle<T> implements Handle<T> {
        private static final int CLAIMED = 0;
        private static final int FREE = 1;
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(PooledHandle.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final LocalPool<T> home;
        T value;
        @SuppressWarnings("unused") // accessed through STATE
        private volatile int state = FREE;

        PooledHandle(LocalPool<T> home) {
            this.home = home;
        }

        void claim() {
            // Plain write is enough: only the owner takes objects, after a queue hand-off if any.
            STATE.set(this, CLAIMED);
        }

        @Override
        public void recycle(T self) {
            if (self != value) {
                throw new IllegalArgumentException("recycling an object through another object's handle");
            }
            if (!STATE.compareAndSet(this, CLAIMED, FREE)) {
                throw new IllegalStateException("object recycled twice: " + self);
            }
            home.recycle(this);
        }
    }
}
