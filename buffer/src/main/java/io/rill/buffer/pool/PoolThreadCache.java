package io.rill.buffer.pool;

import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One thread's stash of freed regions, per size class, in front of its arenas: a release on
 * this thread pushes the region here, the next allocation of that class pops it, and neither
 * takes a lock. Only the owning thread touches a cache, except {@link #free()}, which runs
 * once, after the owner stopped using it (thread-local removal or a Cleaner after the thread
 * died).
 *
 * <p>Each class's stash is a LIFO stack (the most recently freed region is the most likely
 * to be in the CPU cache). Every {@code trimInterval} allocations, each stack gives back the
 * entries that were not needed since the last trim, so a thread whose load dropped does not
 * keep memory forever.
 *
 * <p>A thread that stops allocating altogether never reaches that count. When it is an event
 * loop, the cache knows its {@link Executor} and the allocator's periodic pass calls
 * {@link #requestTrim()}, which runs the same trim as a task on the owner thread: nothing is
 * added to the allocation path and no other thread ever touches the stacks. Caches of other
 * threads are trimmed by allocating, by an explicit {@link #trim()} on their thread, or freed
 * when the thread ends.
 */
public final class PoolThreadCache {

    /**
     * State objects kept for reuse. A thread rarely has more buffers in flight than this that
     * die in a burst; each is a few dozen bytes, so the bound costs little when idle.
     */
    private static final int MAX_RECYCLED = 256;

    /** Regions of one size class: parallel arrays used as a stack. */
    private static final class Stack {
        final PoolChunk<?>[] chunks;
        final long[] handles;
        int size;
        /** Pops since the last trim: entries beyond this were idle. */
        int used;
        /** Releases this stack absorbed, for the arena's metrics (read racily). */
        long pushes;

        Stack(int capacity) {
            chunks = new PoolChunk<?>[capacity];
            handles = new long[capacity];
        }
    }

    /** The heap arena this cache stashes regions of, or null. */
    public final PoolArena<byte[]> heapArena;
    /** The direct arena this cache stashes regions of, or null. */
    public final PoolArena<ByteBuffer> directArena;
    /** The only thread that allocates from or adds to this cache. */
    private final Thread owner;
    /** Stacks by size class (null beyond the cached classes or when the arena is absent). */
    private final Stack[] heapStacks;
    private final Stack[] directStacks;
    private final int trimInterval;
    private int allocationsSinceTrim;
    /** Owner-thread counters, read racily by metrics. */
    private long hits;
    private long misses;
    /** Trims run, and bytes they gave back to the arenas. */
    private long trims;
    private long trimmedBytes;
    private final AtomicBoolean freed = new AtomicBoolean();
    /** The event loop running on the owner thread, or null: where {@link #requestTrim()} sends the trim. */
    private final Executor executor;
    /** True from {@link #requestTrim()} until the trim task ran, so a stalled loop gets one task, not a pile. */
    private final AtomicBoolean trimQueued = new AtomicBoolean();
    private final Runnable trimTask = () -> {
        trimQueued.set(false);
        trim();
    };
    /**
     * The buffer layer's per-allocation state objects that buffers released on this thread left
     * behind, reused by the next allocations here so that a buffer costs only its small handle.
     * Opaque to the pool; a bounded stack (beyond it they go to the GC), empty when caching is off.
     */
    private final Object[] recycled;
    private int recycledCount;

    /**
     * A cache for the calling thread that has no event loop to trim it on request.
     *
     * @param heapArena the heap arena, or null
     * @param directArena the direct arena, or null
     * @param smallCacheSize regions kept per small size class
     * @param normalCacheSize regions kept per normal size class
     * @param maxCachedCapacity the largest region size kept
     * @param trimInterval allocations between two trims
     */
    public PoolThreadCache(PoolArena<byte[]> heapArena, PoolArena<ByteBuffer> directArena, int smallCacheSize,
                           int normalCacheSize, int maxCachedCapacity, int trimInterval) {
        this(heapArena, directArena, smallCacheSize, normalCacheSize, maxCachedCapacity, trimInterval, null);
    }

    /**
     * A cache for the calling thread, which becomes its owner.
     *
     * @param trimInterval allocations between two trims
     * @param executor     the event loop of the calling thread, if it is one: {@link #requestTrim()} runs the
     *                     trim there; null if the thread has none
     * @param heapArena the heap arena, or null
     * @param directArena the direct arena, or null
     * @param smallCacheSize regions kept per small size class
     * @param normalCacheSize regions kept per normal size class
     * @param maxCachedCapacity the largest region size kept
     */
    public PoolThreadCache(PoolArena<byte[]> heapArena, PoolArena<ByteBuffer> directArena, int smallCacheSize,
                           int normalCacheSize, int maxCachedCapacity, int trimInterval, Executor executor) {
        this.executor = executor;
        this.heapArena = heapArena;
        this.directArena = directArena;
        this.owner = Thread.currentThread();
        this.trimInterval = trimInterval;
        this.heapStacks = stacks(heapArena, smallCacheSize, normalCacheSize, maxCachedCapacity);
        this.directStacks = stacks(directArena, smallCacheSize, normalCacheSize, maxCachedCapacity);
        this.recycled = new Object[smallCacheSize > 0 || normalCacheSize > 0 ? MAX_RECYCLED : 0];
        if (heapArena != null) {
            heapArena.threadCaches.add(this);
        }
        if (directArena != null) {
            directArena.threadCaches.add(this);
        }
    }

    /** {@return true on the thread that created this cache} */
    public boolean isOwnedByCurrentThread() {
        return owner == Thread.currentThread();
    }

    private static Stack[] stacks(PoolArena<?> arena, int smallSize, int normalSize, int maxCachedCapacity) {
        if (arena == null) {
            return new Stack[0];
        }
        SizeClasses sizes = arena.sizes();
        int n = 0;
        while (n < sizes.count() && sizes.size(n) <= maxCachedCapacity) {
            n++;
        }
        Stack[] stacks = new Stack[n];
        for (int i = 0; i < n; i++) {
            int capacity = sizes.isSmall(i) ? smallSize : normalSize;
            stacks[i] = capacity > 0 ? new Stack(capacity) : null;
        }
        return stacks;
    }

    private Stack stack(PoolArena<?> arena, int sizeIdx) {
        Stack[] stacks = arena == heapArena ? heapStacks : arena == directArena ? directStacks : null;
        return stacks != null && sizeIdx < stacks.length ? stacks[sizeIdx] : null;
    }

    /** Serves {@code sizeIdx} from the stash; false on a miss (the caller goes to the arena). */
    @SuppressWarnings("unchecked")
    <T> boolean allocate(PoolArena<T> arena, int sizeIdx, int reqCapacity, PooledMemory<T> target) {
        Stack s = stack(arena, sizeIdx);
        if (++allocationsSinceTrim >= trimInterval) {
            trim();
        }
        if (s == null || s.size == 0) {
            misses++;
            return false;
        }
        int top = --s.size;
        PoolChunk<T> chunk = (PoolChunk<T>) s.chunks[top];
        long handle = s.handles[top];
        s.chunks[top] = null;
        s.used++;
        hits++;
        int offset = chunk.offset(handle, arena.sizes().size(sizeIdx));
        target.init(arena, chunk, handle, chunk.memory, offset, reqCapacity, sizeIdx, this);
        return true;
    }

    /** Stashes a freed region; false if this class is not cached or its stack is full. */
    <T> boolean add(PoolArena<T> arena, PoolChunk<T> chunk, long handle, int sizeIdx) {
        if (freed.get()) {
            return false;
        }
        Stack s = stack(arena, sizeIdx);
        if (s == null || s.size == s.chunks.length) {
            return false;
        }
        s.chunks[s.size] = chunk;
        s.handles[s.size++] = handle;
        s.pushes++;
        return true;
    }

    /**
     * Takes an object the buffer layer left here with {@link #offerRecycled}. Owner thread only.
     *
     * @return the most recently offered object, or null if none is left
     */
    public Object pollRecycled() {
        if (recycledCount == 0) {
            return null;
        }
        Object o = recycled[--recycledCount];
        recycled[recycledCount] = null;
        return o;
    }

    /**
     * Keeps {@code state} for {@link #pollRecycled}. Owner thread only; the caller guarantees
     * nothing else references it any more.
     *
     * @param state an object no longer in use
     * @return false if the stash is full (the object is then left to the GC)
     */
    public boolean offerRecycled(Object state) {
        if (recycledCount == recycled.length) {
            return false;
        }
        recycled[recycledCount++] = state;
        return true;
    }

    /** Gives back the entries each stack did not need since the last trim. Owner thread only. */
    public void trim() {
        if (freed.get()) {
            return;
        }
        allocationsSinceTrim = 0;
        trims++;
        trimmedBytes += trim(heapArena, heapStacks) + trim(directArena, directStacks);
    }

    private static <T> long trim(PoolArena<T> arena, Stack[] stacks) {
        long bytes = 0;
        for (int i = 0; i < stacks.length; i++) {
            Stack s = stacks[i];
            if (s != null) {
                bytes += drain(arena, s, i, s.size - s.used);
                s.used = 0;
            }
        }
        return bytes;
    }

    /**
     * Asks the owner thread to {@link #trim()}, as a task on its event loop; any thread may call
     * it. Returns false if there is no event loop to ask (or it has shut down: its thread frees
     * the cache on exit anyway) or a request is still pending.
     *
     * @return true if a trim task was queued
     */
    public boolean requestTrim() {
        if (executor == null || freed.get() || !trimQueued.compareAndSet(false, true)) {
            return false;
        }
        try {
            executor.execute(trimTask);
            return true;
        } catch (RejectedExecutionException e) {
            trimQueued.set(false);
            return false;
        }
    }

    /** {@return true if this cache can be trimmed through {@link #requestTrim()}} */
    public boolean hasExecutor() {
        return executor != null;
    }

    /** Frees the {@code count} oldest entries (bottom of the stack) to the arena; returns their bytes. */
    @SuppressWarnings("unchecked")
    private static <T> long drain(PoolArena<T> arena, Stack s, int sizeIdx, int count) {
        if (count <= 0) {
            return 0;
        }
        for (int i = 0; i < count; i++) {
            arena.freeToChunk((PoolChunk<T>) s.chunks[i], s.handles[i], sizeIdx);
        }
        int rest = s.size - count;
        System.arraycopy(s.chunks, count, s.chunks, 0, rest);
        System.arraycopy(s.handles, count, s.handles, 0, rest);
        java.util.Arrays.fill(s.chunks, rest, s.size, null);
        s.size = rest;
        return (long) count * arena.sizes().size(sizeIdx);
    }

    /** Returns everything to the arenas and unbinds from them; idempotent. */
    public void free() {
        if (!freed.compareAndSet(false, true)) {
            return;
        }
        for (int i = 0; i < heapStacks.length; i++) {
            if (heapStacks[i] != null) {
                drain(heapArena, heapStacks[i], i, heapStacks[i].size);
            }
        }
        for (int i = 0; i < directStacks.length; i++) {
            if (directStacks[i] != null) {
                drain(directArena, directStacks[i], i, directStacks[i].size);
            }
        }
        if (heapArena != null) {
            heapArena.addDeallocations(releasesAbsorbed(heapArena));
            heapArena.threadCaches.remove(this);
        }
        if (directArena != null) {
            directArena.addDeallocations(releasesAbsorbed(directArena));
            directArena.threadCaches.remove(this);
        }
    }

    private Stack[] stacksOf(PoolArena<?> arena) {
        return arena == heapArena ? heapStacks : arena == directArena ? directStacks : new Stack[0];
    }

    /** Bytes of {@code arena}'s regions stashed here now; racy unless called by the owner. */
    long stashedBytes(PoolArena<?> arena) {
        Stack[] stacks = stacksOf(arena);
        long bytes = 0;
        for (int i = 0; i < stacks.length; i++) {
            bytes += stacks[i] == null ? 0 : (long) stacks[i].size * arena.sizes().size(i);
        }
        return bytes;
    }

    /** Releases of {@code arena}'s buffers this cache absorbed; racy unless called by the owner. */
    long releasesAbsorbed(PoolArena<?> arena) {
        long n = 0;
        for (Stack s : stacksOf(arena)) {
            n += s == null ? 0 : s.pushes;
        }
        return n;
    }

    /** {@return true once the cache gave its regions back for good (its thread ended)} */
    public boolean isFreed() {
        return freed.get();
    }

    /** {@return the allocations this cache served; racy off the owner thread} */
    public long hits() {
        return hits;
    }

    /** {@return the allocations this cache could not serve; racy off the owner thread} */
    public long misses() {
        return misses;
    }

    /**
     * {@return the trims run on this cache (by allocation count, by request or explicitly)} Racy off the owner
     * thread.
     */
    public long trims() {
        return trims;
    }

    /** {@return the bytes the trims gave back to the arenas} Racy off the owner thread. */
    public long trimmedBytes() {
        return trimmedBytes;
    }

    /** {@return the regions currently stashed, all classes and both kinds} */
    public int size() {
        int n = 0;
        for (Stack s : heapStacks) {
            n += s == null ? 0 : s.size;
        }
        for (Stack s : directStacks) {
            n += s == null ? 0 : s.size;
        }
        return n;
    }
}
