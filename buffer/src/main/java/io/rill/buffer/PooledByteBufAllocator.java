package io.rill.buffer;

import io.rill.buffer.pool.PoolArena;
import io.rill.buffer.pool.PoolThreadCache;
import io.rill.buffer.pool.SizeClasses;
import io.rill.util.RillProperties;
import io.rill.util.concurrent.FastThreadLocal;
import io.rill.util.concurrent.FastThreadLocalThread;
import io.rill.util.concurrent.SingleThreadEventExecutor;
import io.rill.util.concurrent.Ticker;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The jemalloc-style pooled allocator (the default). Memory comes in chunks (4 MiB by
 * default) owned by arenas; each thread gets a {@link PoolThreadCache} bound to the
 * least-used heap and direct arena, so most allocations and releases touch only thread-local
 * state. The bookkeeping is in {@code io.rill.buffer.pool}; this class wires it to buffers.
 *
 * <p>A thread's cache is freed back to the arenas when its {@link FastThreadLocal} is removed
 * (Rill's event-loop threads do this on exit) or, for other threads, by a {@link Cleaner} once
 * the thread object is unreachable.
 *
 * <p>Memory goes back after a burst in two steps, both driven by a periodic pass
 * ({@link RillProperties#ALLOCATOR_TRIM_INTERVAL_MILLIS}, see {@link #reclaimIdleMemory()}) and
 * neither adding work to allocation or release: event-loop threads trim their caches, which
 * empties chunks, and chunks that stayed empty for {@link RillProperties#ALLOCATOR_CHUNK_IDLE_MILLIS}
 * are freed. {@link #metric()} counts both.
 */
public final class PooledByteBufAllocator extends AbstractByteBufAllocator {

    private static final Cleaner CLEANER = Cleaner.create();

    /** Configured from {@code rill.allocator.*}; see {@link RillProperties}. Prefers direct buffers. */
    public static final PooledByteBufAllocator DEFAULT = new PooledByteBufAllocator(true,
            RillProperties.ALLOCATOR_NUM_HEAP_ARENAS, RillProperties.ALLOCATOR_NUM_DIRECT_ARENAS,
            RillProperties.ALLOCATOR_PAGE_SIZE, RillProperties.ALLOCATOR_MAX_ORDER);

    private final PoolArena<byte[]>[] heapArenas;
    private final PoolArena<ByteBuffer>[] directArenas;
    private final SizeClasses sizes;
    private final int smallCacheSize;
    private final int normalCacheSize;
    private final FastThreadLocal<PoolThreadCache> threadCache;
    /** Live caches, for metrics. */
    private final Set<PoolThreadCache> caches = ConcurrentHashMap.newKeySet();
    private final LongAdder freedCacheHits = new LongAdder();
    private final LongAdder freedCacheMisses = new LongAdder();
    private final LongAdder freedCacheTrims = new LongAdder();
    private final LongAdder freedCacheTrimmedBytes = new LongAdder();
    private final long chunkIdleNanos;
    private final PoolReclaimer reclaimer;
    private final PooledByteBufAllocatorMetric metric = new PooledByteBufAllocatorMetric(this);

    /**
     * An allocator with the default cache sizes.
     *
     * @param preferDirect whether {@code buffer()} returns direct buffers
     * @param numHeapArenas the number of heap arenas (threads are spread over them)
     * @param numDirectArenas the number of direct arenas
     * @param pageSize the page size, a power of two of at least 4096
     * @param maxOrder chunk size is {@code pageSize << maxOrder}, 2 to 14
     */
    public PooledByteBufAllocator(boolean preferDirect, int numHeapArenas, int numDirectArenas, int pageSize, int maxOrder) {
        this(preferDirect, numHeapArenas, numDirectArenas, pageSize, maxOrder,
                RillProperties.ALLOCATOR_SMALL_CACHE_SIZE, RillProperties.ALLOCATOR_NORMAL_CACHE_SIZE);
    }

    /**
     * Cache sizes of 0 turn the per-thread caches off (every allocation takes an arena lock).
     *
     * @param preferDirect whether {@code buffer()} returns direct buffers
     * @param numHeapArenas the number of heap arenas (threads are spread over them)
     * @param numDirectArenas the number of direct arenas
     * @param pageSize the page size, a power of two of at least 4096
     * @param maxOrder chunk size is {@code pageSize << maxOrder}, 2 to 14
     * @param smallCacheSize regions cached per small size class and thread
     * @param normalCacheSize regions cached per normal size class and thread
     */
    public PooledByteBufAllocator(boolean preferDirect, int numHeapArenas, int numDirectArenas, int pageSize,
                                  int maxOrder, int smallCacheSize, int normalCacheSize) {
        this(preferDirect, numHeapArenas, numDirectArenas, pageSize, maxOrder, smallCacheSize, normalCacheSize,
                Ticker.systemTicker(), RillProperties.ALLOCATOR_TRIM_INTERVAL_MILLIS);
    }

    /**
     * An allocator with every knob given, for tests and tuned deployments.
     *
     * @param ticker             the clock that says how long a chunk has been empty (a
     *                           {@link io.rill.util.concurrent.ManualTicker} in tests)
     * @param trimIntervalMillis real time between two background runs of {@link #reclaimIdleMemory()};
     *                           0 runs none, the caller then drives it
     * @param preferDirect whether {@code buffer()} returns direct buffers
     * @param numHeapArenas the number of heap arenas (threads are spread over them)
     * @param numDirectArenas the number of direct arenas
     * @param pageSize the page size, a power of two of at least 4096
     * @param maxOrder chunk size is {@code pageSize << maxOrder}, 2 to 14
     * @param smallCacheSize regions cached per small size class and thread
     * @param normalCacheSize regions cached per normal size class and thread
     */
    @SuppressWarnings("unchecked")
    public PooledByteBufAllocator(boolean preferDirect, int numHeapArenas, int numDirectArenas, int pageSize,
                                  int maxOrder, int smallCacheSize, int normalCacheSize, Ticker ticker,
                                  long trimIntervalMillis) {
        super(preferDirect);
        if (maxOrder < 2 || maxOrder > 14) {
            throw new IllegalArgumentException("maxOrder: " + maxOrder + " (expected: 2-14)");
        }
        this.sizes = new SizeClasses(pageSize, pageSize << maxOrder);
        this.smallCacheSize = smallCacheSize;
        this.normalCacheSize = normalCacheSize;
        PoolArena.CacheLookup lookup = this::currentCache;
        heapArenas = new PoolArena[numHeapArenas];
        for (int i = 0; i < numHeapArenas; i++) {
            heapArenas[i] = new PoolArena.Heap(sizes, lookup, this, ticker);
        }
        directArenas = new PoolArena[numDirectArenas];
        for (int i = 0; i < numDirectArenas; i++) {
            directArenas[i] = new PoolArena.Direct(sizes, lookup, this, ticker);
        }
        chunkIdleNanos = TimeUnit.MILLISECONDS.toNanos(RillProperties.ALLOCATOR_CHUNK_IDLE_MILLIS);
        reclaimer = new PoolReclaimer(this, trimIntervalMillis);
        threadCache = new FastThreadLocal<>() {
            @Override
            protected PoolThreadCache initialValue() {
                return newCache();
            }

            @Override
            protected void onRemoval(PoolThreadCache cache) {
                retire(cache);
            }
        };
    }

    private PoolThreadCache currentCache(boolean create) {
        return create || threadCache.isSet() ? threadCache.get() : null;
    }

    private PoolThreadCache newCache() {
        Thread thread = Thread.currentThread();
        boolean caching = RillProperties.ALLOCATOR_USE_CACHE_FOR_ALL_THREADS || thread instanceof FastThreadLocalThread;
        PoolThreadCache cache = new PoolThreadCache(leastUsed(heapArenas), leastUsed(directArenas),
                caching ? smallCacheSize : 0, caching ? normalCacheSize : 0,
                RillProperties.ALLOCATOR_MAX_CACHED_BUFFER_CAPACITY, RillProperties.ALLOCATOR_CACHE_TRIM_INTERVAL,
                SingleThreadEventExecutor.currentExecutor());
        caches.add(cache);
        // Every chunk is made through some cache, so a pass scheduled from here covers all memory.
        reclaimer.start();
        if (!(thread instanceof FastThreadLocalThread)) {
            // Nobody removes thread-locals of foreign threads; free the cache once the thread is gone.
            CLEANER.register(thread, () -> retire(cache));
        }
        return cache;
    }

    private void retire(PoolThreadCache cache) {
        cache.free();
        if (caches.remove(cache)) {
            freedCacheHits.add(cache.hits());
            freedCacheMisses.add(cache.misses());
            freedCacheTrims.add(cache.trims());
            freedCacheTrimmedBytes.add(cache.trimmedBytes());
        }
    }

    private static <T> PoolArena<T> leastUsed(PoolArena<T>[] arenas) {
        if (arenas.length == 0) {
            return null;
        }
        PoolArena<T> best = arenas[0];
        for (PoolArena<T> arena : arenas) {
            if (arena.numThreadCaches() < best.numThreadCaches()) {
                best = arena;
            }
        }
        return best;
    }

    @Override
    ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        PoolThreadCache cache = threadCache.get();
        if (cache.heapArena == null) {
            return toLeakAware(new HeapByteBuf(this, new byte[initialCapacity], maxCapacity));
        }
        MemoryRegion<byte[]> region = MemoryRegion.obtain(cache, this, maxCapacity);
        cache.heapArena.allocate(cache, initialCapacity, region);
        return toLeakAware(new HeapByteBuf(region));
    }

    @Override
    ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        PoolThreadCache cache = threadCache.get();
        if (cache.directArena == null) {
            return toLeakAware(new DirectByteBuf(this, ByteBuffer.allocateDirect(initialCapacity), maxCapacity));
        }
        MemoryRegion<ByteBuffer> region = MemoryRegion.obtain(cache, this, maxCapacity);
        cache.directArena.allocate(cache, initialCapacity, region);
        return toLeakAware(new DirectByteBuf(region));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return directArenas.length > 0;
    }

    /** Gives back what the calling thread's cache did not reuse recently. */
    public void trimCurrentThreadCache() {
        PoolThreadCache cache = currentCache(false);
        if (cache != null) {
            cache.trim();
        }
    }

    /** Returns everything the calling thread's cache holds to the arenas and drops the cache. */
    public void freeCurrentThreadCache() {
        threadCache.remove();
    }

    /**
     * One pass of giving memory back, what the periodic pass runs: asks every event-loop thread
     * whose cache holds regions to trim it (as a task on that loop, so it completes later), and
     * frees the chunks that have been empty for {@link RillProperties#ALLOCATOR_CHUNK_IDLE_MILLIS}.
     * Any thread may call it. Returns the number of chunks freed.
     *
     * @return the number of chunks freed
     */
    public int reclaimIdleMemory() {
        for (PoolThreadCache cache : caches) {
            if (cache.hasExecutor() && cache.size() > 0) {
                cache.requestTrim();
            }
        }
        int freed = 0;
        for (PoolArena<?> arena : heapArenas) {
            freed += arena.freeIdleChunks(chunkIdleNanos);
        }
        for (PoolArena<?> arena : directArenas) {
            freed += arena.freeIdleChunks(chunkIdleNanos);
        }
        return freed;
    }

    /** True while a thread cache exists or an arena holds memory: the periodic pass has work. */
    boolean holdsMemoryOrCaches() {
        return !caches.isEmpty() || metric.usedHeapMemory() + metric.usedDirectMemory() > 0;
    }

    /**
     * {@return the allocator's metrics: arenas, chunks, memory held and pinned, cache hits} Its getters are
     * thread-safe and may be read while the allocator is in use.
     */
    public PooledByteBufAllocatorMetric metric() {
        return metric;
    }

    List<PoolArena<byte[]>> heapArenas() {
        return Collections.unmodifiableList(Arrays.asList(heapArenas));
    }

    List<PoolArena<ByteBuffer>> directArenas() {
        return Collections.unmodifiableList(Arrays.asList(directArenas));
    }

    SizeClasses sizeClasses() {
        return sizes;
    }

    Set<PoolThreadCache> liveCaches() {
        return caches;
    }

    long freedCacheHits() {
        return freedCacheHits.sum();
    }

    long freedCacheMisses() {
        return freedCacheMisses.sum();
    }

    long freedCacheTrims() {
        return freedCacheTrims.sum();
    }

    long freedCacheTrimmedBytes() {
        return freedCacheTrimmedBytes.sum();
    }
}
