package io.rill.buffer.pool;

import io.rill.util.concurrent.Ticker;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import jdk.jfr.FlightRecorder;

/**
 * A set of chunks of one memory kind, guarded by one lock. Threads are spread over several
 * arenas (each thread cache is bound to the least-used one), so the lock is rarely contended,
 * and the per-thread caches in front of it ({@link PoolThreadCache}) serve most allocations
 * without taking it at all.
 *
 * <p>Small requests take an element of a slab of their size class: the arena keeps, per small
 * class, a list of slabs that have free elements. Normal requests take a run in the first
 * chunk that has one, else a new chunk. Huge requests get memory of their own that is not
 * pooled (but counted), freed as soon as their buffer is released.
 *
 * <p>A chunk with no page in use is kept for reuse, most recently emptied first, and
 * {@link #freeIdleChunks} frees those that stayed empty for the idle time: a load that keeps
 * emptying and refilling a chunk reuses it instead of paying for fresh memory and its page
 * faults each time, and a burst's chunks still go back once it is over.
 *
 * @param <T> {@code byte[]} or a direct {@link ByteBuffer}
 */
public abstract class PoolArena<T> {

    /** How an arena finds the calling thread's cache. */
    public interface CacheLookup {
        /**
         * {@return the current thread's cache, created if {@code create} and allowed; else null}
         *
         * @param create whether to create the cache when the thread has none
         */
        PoolThreadCache current(boolean create);
    }

    private final SizeClasses sizes;
    private final CacheLookup caches;
    private final ReentrantLock lock = new ReentrantLock();
    /** The chunks, with and without a page in use, and the slabs with free elements. Guarded by lock. */
    private final ArenaChunks<T> chunks;

    /**
     * Thread caches bound to this arena: to pick the least-used arena, and for the metrics. A
     * region going through a cache touches no shared counter; the metrics add up the caches.
     */
    final Set<PoolThreadCache> threadCaches = ConcurrentHashMap.newKeySet();
    private final LongAdder smallAllocations = new LongAdder();
    private final LongAdder normalAllocations = new LongAdder();
    private final LongAdder hugeAllocations = new LongAdder();
    /** Releases that reached the arena, plus those counted by caches that were freed since. */
    private final LongAdder deallocations = new LongAdder();
    /** Bytes of regions out of their chunks: held by buffers or stashed in thread caches. Guarded by lock. */
    private long outBytes;
    /** Bytes of live huge allocations. */
    private final LongAdder hugeBytes = new LongAdder();
    /** Chunks whose memory was freed after idling. */
    private final LongAdder chunksFreed = new LongAdder();
    /** Bytes of chunks and huge allocations freed (handed to the GC where the memory kind needs it). */
    private final LongAdder returnedBytes = new LongAdder();

    /** Whoever made this arena (the allocator), for buffers to name as theirs; the pool never uses it. */
    private final Object owner;

    /**
     * An arena with no chunks yet.
     *
     * @param sizes the size classes shared by the allocator's arenas
     * @param caches how to find the calling thread's cache
     * @param owner the allocator, named by buffers as theirs; may be null
     * @param ticker the clock that measures how long a chunk has been empty
     */
    protected PoolArena(SizeClasses sizes, CacheLookup caches, Object owner, Ticker ticker) {
        this.owner = owner;
        this.sizes = sizes;
        this.chunks = new ArenaChunks<>(this, sizes, ticker);
        this.caches = caches;
    }

    /**
     * {@return new memory for a chunk or a huge allocation}
     *
     * @param size the number of bytes
     */
    protected abstract T newMemory(int size);

    /**
     * {@return the size in bytes of memory returned by {@link #newMemory}}
     *
     * @param memory memory from {@link #newMemory}
     */
    protected abstract int memoryLength(T memory);

    /**
     * Gives back memory from {@link #newMemory} that no buffer and no chunk refers to any more:
     * at once where the memory kind allows it, else by dropping it for the GC.
     *
     * @param memory memory from {@link #newMemory}
     */
    protected abstract void freeMemory(T memory);

    /** {@return true if {@link #freeMemory} returns memory at once; false if the GC does it later} */
    public abstract boolean freesMemoryPromptly();

    /** {@return the object named as this arena's owner when it was made (the allocator), or null} */
    public final Object owner() {
        return owner;
    }

    /** {@return the size classes this arena allocates in} */
    public final SizeClasses sizes() {
        return sizes;
    }

    /** {@return the calling thread's cache, creating it if allowed; may be null} */
    public final PoolThreadCache currentCache() {
        return caches.current(true);
    }

    // ------------------------------------------------------------------ allocation

    /**
     * Allocates {@code reqCapacity} bytes for {@code target}, from {@code cache} when it has a region.
     *
     * @param cache the calling thread's cache, or null
     * @param reqCapacity the number of bytes asked for
     * @param target receives the chunk, handle and memory of the region
     */
    public final void allocate(PoolThreadCache cache, int reqCapacity, PooledMemory<T> target) {
        int sizeIdx = sizes.sizeIndex(reqCapacity);
        if (sizeIdx < 0) {
            T memory = newMemory(reqCapacity);
            hugeAllocations.increment();
            hugeBytes.add(reqCapacity);
            target.init(this, PoolChunk.huge(this, memory), 0, memory, 0, reqCapacity, -1, cache);
            return;
        }
        if (cache != null && cache.allocate(this, sizeIdx, reqCapacity, target)) {
            return;
        }
        lock.lock();
        try {
            if (sizes.isSmall(sizeIdx)) {
                allocateSmall(cache, sizeIdx, reqCapacity, target);
                smallAllocations.increment();
            } else {
                allocateNormal(cache, sizeIdx, reqCapacity, target);
                normalAllocations.increment();
            }
            outBytes += sizes.size(sizeIdx);
        } finally {
            lock.unlock();
        }
    }

    private void allocateSmall(PoolThreadCache cache, int sizeIdx, int reqCapacity, PooledMemory<T> target) {
        PoolSubpage<T> slab = chunks.slabWithRoom(sizeIdx);
        long handle = slab.allocate();
        if (slab.numAvail == 0) {
            slab.unlink();
        }
        PoolChunk<T> chunk = slab.chunk;
        target.init(this, chunk, handle, chunk.memory, chunk.offset(handle, slab.elementSize), reqCapacity, sizeIdx,
                cache);
    }

    private void allocateNormal(PoolThreadCache cache, int sizeIdx, int reqCapacity, PooledMemory<T> target) {
        long handle = chunks.allocateRun(sizes.runPages(sizeIdx));
        PoolChunk<T> chunk = chunks.lastChunk();
        target.init(this, chunk, handle, chunk.memory, chunk.offset(handle, 0), reqCapacity, sizeIdx, cache);
    }

    // ------------------------------------------------------------------ release

    /**
     * Returns a region: into the calling thread's cache if it belongs to this arena and has
     * room, else to the chunk. A {@linkplain PoolChunk#isHuge() huge} chunk is simply dropped.
     *
     * @param chunk the chunk of the region
     * @param handle the region's handle
     * @param sizeIdx the region's size class
     * @param memory the chunk's memory
     */
    public final void free(PoolChunk<T> chunk, long handle, int sizeIdx, T memory) {
        free(chunk, handle, sizeIdx, memory, null);
    }

    /**
     * {@link #free(PoolChunk, long, int, Object)} with the cache that served the allocation: when
     * the calling thread owns it (the usual case) it is the thread's cache, found without a
     * thread-local lookup.
     *
     * @param chunk the chunk of the region
     * @param handle the region's handle
     * @param sizeIdx the region's size class
     * @param memory the chunk's memory
     * @param allocatedFrom the cache that served the allocation, or null
     */
    public final void free(PoolChunk<T> chunk, long handle, int sizeIdx, T memory, PoolThreadCache allocatedFrom) {
        if (chunk.isHuge()) {
            int length = memoryLength(memory);
            freeMemory(memory);
            deallocations.increment();
            hugeBytes.add(-length);
            returnedBytes.add(length);
            return;
        }
        PoolThreadCache cache = allocatedFrom != null && allocatedFrom.isOwnedByCurrentThread()
                ? allocatedFrom : caches.current(false);
        if (cache != null && cache.add(this, chunk, handle, sizeIdx)) {
            return;
        }
        deallocations.increment();
        freeToChunk(chunk, handle, sizeIdx);
    }

    /** Returns a region to its chunk (also used when a thread cache is trimmed or freed). */
    final void freeToChunk(PoolChunk<T> chunk, long handle, int sizeIdx) {
        lock.lock();
        try {
            if (PoolChunk.isSlab(handle)) {
                chunks.freeElement(chunk, handle, sizeIdx);
            } else {
                chunk.freeAllocatedRun(PoolChunk.runOffset(handle), PoolChunk.runPages(handle));
            }
            outBytes -= sizes.size(sizeIdx);
            chunks.runFreed(chunk);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees the chunks that have been entirely free for at least {@code idleNanos} (on this
     * arena's ticker). The memory is released outside the lock: the chunks are already out of
     * both lists, so no allocation can reach them.
     *
     * @param idleNanos how long a chunk must have been empty
     * @return the number of chunks freed
     */
    public final int freeIdleChunks(long idleNanos) {
        List<PoolChunk<T>> idle;
        lock.lock();
        try {
            idle = chunks.pollIdle(idleNanos);
        } finally {
            lock.unlock();
        }
        if (idle == null) {
            return 0;
        }
        for (PoolChunk<T> chunk : idle) {
            freeMemory(chunk.memory);
            chunksFreed.increment();
            returnedBytes.add(sizes.chunkSize());
            if (FlightRecorder.isInitialized()) { // else the event class would load all of JFR
                ChunkFreedEvent.commit(this, sizes.chunkSize());
            }
        }
        return idle.size();
    }

    // ------------------------------------------------------------------ metrics

    /** {@return the number of chunks currently held, empty ones included} */
    public final int numChunks() {
        lock.lock();
        try {
            return chunks.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@return the number of chunks held with no page in use} They are kept for reuse until they idled long
     * enough to be freed.
     */
    public final int numEmptyChunks() {
        lock.lock();
        try {
            return chunks.emptySize();
        } finally {
            lock.unlock();
        }
    }

    /** {@return the number of chunks freed after idling since this arena was made} */
    public final long numChunksFreed() {
        return chunksFreed.sum();
    }

    /** {@return the bytes of chunks and huge allocations freed since this arena was made} */
    public final long returnedBytes() {
        return returnedBytes.sum();
    }

    /** {@return the usage percentage of each chunk: those in use oldest first, then a 0 per empty chunk} */
    public final List<Integer> chunkUsages() {
        lock.lock();
        try {
            return chunks.usages();
        } finally {
            lock.unlock();
        }
    }

    /** {@return the number of live thread caches that allocate from this arena} */
    public final int numThreadCaches() {
        return threadCaches.size();
    }

    /** {@return the memory this arena holds: its chunks plus live huge allocations} */
    public final long usedMemory() {
        return (long) numChunks() * sizes.chunkSize() + hugeBytes.sum();
    }

    /**
     * {@return the bytes held by live buffers (size-class rounded)} That is the regions out of
     * their chunks minus those stashed in thread caches, plus huge allocations; cache sizes are
     * read racily.
     */
    public final long pinnedMemory() {
        long out;
        lock.lock();
        try {
            out = outBytes;
        } finally {
            lock.unlock();
        }
        for (PoolThreadCache cache : threadCaches) {
            out -= cache.stashedBytes(this);
        }
        return Math.max(0, out) + hugeBytes.sum();
    }

    /** {@return the small allocations that reached the arena lock (thread-cache misses)} */
    public final long numSmallAllocations() {
        return smallAllocations.sum();
    }

    /** {@return the normal allocations that reached the arena lock (thread-cache misses)} */
    public final long numNormalAllocations() {
        return normalAllocations.sum();
    }

    /** {@return the huge allocations, which always reach the arena} */
    public final long numHugeAllocations() {
        return hugeAllocations.sum();
    }

    /** {@return the releases of buffers from this arena, through a cache or not} */
    public final long numDeallocations() {
        long n = deallocations.sum();
        for (PoolThreadCache cache : threadCaches) {
            n += cache.releasesAbsorbed(this);
        }
        return n;
    }

    /** A freed cache hands over the releases it counted. */
    final void addDeallocations(long n) {
        deallocations.add(n);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(chunks: " + numChunks() + ", empty: " + numEmptyChunks()
                + ", freed: " + numChunksFreed() + ", used: " + usedMemory()
                + ", pinned: " + pinnedMemory() + ", caches: " + numThreadCaches() + ")";
    }

    /**
     * Arena of {@code byte[]} chunks. A freed chunk is garbage at once; whether the JVM then gives
     * the heap pages back to the operating system is the collector's policy.
     */
    public static final class Heap extends PoolArena<byte[]> {
        /**
         * A heap arena on the system clock, owned by nobody.
         *
         * @param sizes the size classes
         * @param caches how to find the calling thread's cache
         */
        public Heap(SizeClasses sizes, CacheLookup caches) {
            this(sizes, caches, null, Ticker.systemTicker());
        }

        /**
         * A heap arena that measures idle chunks on {@code ticker}.
         *
         * @param ticker the clock that measures how long a chunk has been empty
         * @param sizes the size classes
         * @param caches how to find the calling thread's cache
         * @param owner the allocator, or null
         */
        public Heap(SizeClasses sizes, CacheLookup caches, Object owner, Ticker ticker) {
            super(sizes, caches, owner, ticker);
        }

        @Override
        protected byte[] newMemory(int size) {
            return new byte[size];
        }

        @Override
        protected int memoryLength(byte[] memory) {
            return memory.length;
        }

        @Override
        protected void freeMemory(byte[] memory) {
            // unreachable from now on: the GC takes it
        }

        @Override
        public boolean freesMemoryPromptly() {
            return false;
        }
    }

    /**
     * Arena of direct {@link ByteBuffer} chunks; see {@link DirectMemory} for where they come from
     * and when their memory really goes back.
     */
    public static final class Direct extends PoolArena<ByteBuffer> {
        private final DirectMemory memory = DirectMemory.SHARED;

        /**
         * A direct arena on the system clock, owned by nobody.
         *
         * @param sizes the size classes
         * @param caches how to find the calling thread's cache
         */
        public Direct(SizeClasses sizes, CacheLookup caches) {
            this(sizes, caches, null, Ticker.systemTicker());
        }

        /**
         * A direct arena that measures idle chunks on {@code ticker}.
         *
         * @param ticker the clock that measures how long a chunk has been empty
         * @param sizes the size classes
         * @param caches how to find the calling thread's cache
         * @param owner the allocator, or null
         */
        public Direct(SizeClasses sizes, CacheLookup caches, Object owner, Ticker ticker) {
            super(sizes, caches, owner, ticker);
        }

        @Override
        protected ByteBuffer newMemory(int size) {
            return memory.allocate(size);
        }

        @Override
        protected int memoryLength(ByteBuffer memory) {
            return memory.capacity();
        }

        @Override
        protected void freeMemory(ByteBuffer chunkMemory) {
            memory.free(chunkMemory);
        }

        @Override
        public boolean freesMemoryPromptly() {
            return memory.releasesPromptly();
        }
    }
}
