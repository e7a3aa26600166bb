package io.rill.buffer;

import io.rill.buffer.pool.PoolArena;
import io.rill.buffer.pool.PoolThreadCache;
import io.rill.buffer.pool.SizeClasses;
import io.rill.util.RillProperties;
import io.rill.util.concurrent.FastThreadLocal;
import io.rill.util.concurrent.FastThreadLocalThread;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
    private final PooledByteBufAllocatorMetric metric = new PooledByteBufAllocatorMetric(this);

    /** An allocator with the default cache sizes. */
    public PooledByteBufAllocator(boolean preferDirect, int numHeapArenas, int numDirectArenas, int pageSize, int maxOrder) {
        this(preferDirect, numHeapArenas, numDirectArenas, pageSize, maxOrder,
                RillProperties.ALLOCATOR_SMALL_CACHE_SIZE, RillProperties.ALLOCATOR_NORMAL_CACHE_SIZE);
    }

    /** Cache sizes of 0 turn the per-thread caches off (every allocation takes an arena lock). */
    @SuppressWarnings("unchecked")
    public PooledByteBufAllocator(boolean preferDirect, int numHeapArenas, int numDirectArenas, int pageSize,
                                  int maxOrder, int smallCacheSize, int normalCacheSize) {
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
            heapArenas[i] = new PoolArena.Heap(sizes, lookup, this);
        }
        directArenas = new PoolArena[numDirectArenas];
        for (int i = 0; i < numDirectArenas; i++) {
            directArenas[i] = new PoolArena.Direct(sizes, lookup, this);
        }
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
                RillProperties.ALLOCATOR_MAX_CACHED_BUFFER_CAPACITY, RillProperties.ALLOCATOR_CACHE_TRIM_INTERVAL);
        caches.add(cache);
        if (!(thread instanceof FastThreadLocalThread)) {
            // Nobody removes thread-locals of foreign threads; free the cache once the thread is gone.
            CLEANER.register(thread, () -> retire(cache));
        }
        return cache;
    }

    private void retire(PoolThreadCache cache) {
        if (caches.remove(cache)) {
            freedCacheHits.add(cache.hits());
            freedCacheMisses.add(cache.misses());
        }
        cache.free();
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
        HeapByteBuf buf = new HeapByteBuf(this, maxCapacity);
        cache.heapArena.allocate(cache, initialCapacity, buf);
        return toLeakAware(buf);
    }

    @Override
    ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        PoolThreadCache cache = threadCache.get();
        if (cache.directArena == null) {
            return toLeakAware(new DirectByteBuf(this, ByteBuffer.allocateDirect(initialCapacity), maxCapacity));
        }
        DirectByteBuf buf = new DirectByteBuf(this, maxCapacity);
        cache.directArena.allocate(cache, initialCapacity, buf);
        return toLeakAware(buf);
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
}
