package io.rill.buffer;

import io.rill.buffer.pool.PoolArena;
import io.rill.buffer.pool.PoolThreadCache;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A live view of a {@link PooledByteBufAllocator}'s state. Figures are read without locks
 * from counters other threads update, so they are exact only when the allocator is quiet.
 */
public final class PooledByteBufAllocatorMetric {

    private final PooledByteBufAllocator allocator;

    PooledByteBufAllocatorMetric(PooledByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    /** {@return the heap arenas; each reports chunks, memory, caches and allocation counts} */
    public List<PoolArena<byte[]>> heapArenas() {
        return allocator.heapArenas();
    }

    /** {@return the direct arenas; each reports chunks, memory, caches and allocation counts} */
    public List<PoolArena<ByteBuffer>> directArenas() {
        return allocator.directArenas();
    }

    /** {@return the number of live per-thread caches} */
    public int numThreadLocalCaches() {
        return allocator.liveCaches().size();
    }

    /** {@return the chunk size in bytes} */
    public int chunkSize() {
        return allocator.sizeClasses().chunkSize();
    }

    /** {@return the page size in bytes} */
    public int pageSize() {
        return allocator.sizeClasses().pageSize();
    }

    /** {@return the memory held by heap arenas: chunks plus huge allocations} */
    public long usedHeapMemory() {
        long sum = 0;
        for (PoolArena<?> a : heapArenas()) {
            sum += a.usedMemory();
        }
        return sum;
    }

    /** {@return the memory held by direct arenas: chunks plus huge allocations} */
    public long usedDirectMemory() {
        long sum = 0;
        for (PoolArena<?> a : directArenas()) {
            sum += a.usedMemory();
        }
        return sum;
    }

    /** {@return the bytes held by live heap buffers (rounded to their size class)} */
    public long pinnedHeapMemory() {
        long sum = 0;
        for (PoolArena<?> a : heapArenas()) {
            sum += a.pinnedMemory();
        }
        return sum;
    }

    /** {@return the bytes held by live direct buffers (rounded to their size class)} */
    public long pinnedDirectMemory() {
        long sum = 0;
        for (PoolArena<?> a : directArenas()) {
            sum += a.pinnedMemory();
        }
        return sum;
    }

    /** {@return the allocations served by a thread cache, over live and retired caches} */
    public long cacheHits() {
        long sum = allocator.freedCacheHits();
        for (PoolThreadCache c : allocator.liveCaches()) {
            sum += c.hits();
        }
        return sum;
    }

    /** {@return the chunks held with no page in use, waiting out the idle time before they are freed} */
    public int numEmptyChunks() {
        int sum = 0;
        for (PoolArena<?> a : heapArenas()) {
            sum += a.numEmptyChunks();
        }
        for (PoolArena<?> a : directArenas()) {
            sum += a.numEmptyChunks();
        }
        return sum;
    }

    /** {@return the chunks freed after idling, heap and direct} */
    public long numChunksFreed() {
        long sum = 0;
        for (PoolArena<?> a : heapArenas()) {
            sum += a.numChunksFreed();
        }
        for (PoolArena<?> a : directArenas()) {
            sum += a.numChunksFreed();
        }
        return sum;
    }

    /** {@return the bytes of heap chunks and huge heap buffers freed (left to the GC, which owns the heap)} */
    public long returnedHeapMemory() {
        long sum = 0;
        for (PoolArena<?> a : heapArenas()) {
            sum += a.returnedBytes();
        }
        return sum;
    }

    /**
     * Bytes of direct chunks and huge direct buffers freed: returned to the C heap at once when
     * {@link #directMemoryReleasedPromptly()}, else once the GC collects them.
     *
     * @return the bytes of direct memory freed
     */
    public long returnedDirectMemory() {
        long sum = 0;
        for (PoolArena<?> a : directArenas()) {
            sum += a.returnedBytes();
        }
        return sum;
    }

    /**
     * {@return true if freed direct memory goes back at once (JDK 22+, {@code
     * rill.allocator.releaseDirectMemory})}
     */
    public boolean directMemoryReleasedPromptly() {
        List<PoolArena<ByteBuffer>> direct = directArenas();
        return !direct.isEmpty() && direct.get(0).freesMemoryPromptly();
    }

    /**
     * {@return the thread-cache trims run (every trim interval of allocations, by the periodic pass, or
     * explicitly)}
     */
    public long cacheTrims() {
        long sum = allocator.freedCacheTrims();
        for (PoolThreadCache c : allocator.liveCaches()) {
            sum += c.trims();
        }
        return sum;
    }

    /** {@return the bytes that trims moved from thread caches back to their arenas} */
    public long cacheTrimmedBytes() {
        long sum = allocator.freedCacheTrimmedBytes();
        for (PoolThreadCache c : allocator.liveCaches()) {
            sum += c.trimmedBytes();
        }
        return sum;
    }

    /** {@return the allocations a thread cache could not serve (they took an arena lock)} */
    public long cacheMisses() {
        long sum = allocator.freedCacheMisses();
        for (PoolThreadCache c : allocator.liveCaches()) {
            sum += c.misses();
        }
        return sum;
    }

    @Override
    public String toString() {
        return "PooledByteBufAllocatorMetric(heapArenas: " + heapArenas().size() + ", directArenas: "
                + directArenas().size() + ", threadCaches: " + numThreadLocalCaches() + ", usedHeap: "
                + usedHeapMemory() + ", usedDirect: " + usedDirectMemory() + ", pinnedHeap: " + pinnedHeapMemory()
                + ", pinnedDirect: " + pinnedDirectMemory() + ", emptyChunks: " + numEmptyChunks()
                + ", chunksFreed: " + numChunksFreed() + ", returnedHeap: " + returnedHeapMemory() + ", returnedDirect: "
                + returnedDirectMemory() + (directMemoryReleasedPromptly() ? " (released)" : " (left to the GC)")
                + ", cacheHits: " + cacheHits() + ", cacheMisses: " + cacheMisses() + ", cacheTrims: " + cacheTrims()
                + ", cacheTrimmedBytes: " + cacheTrimmedBytes() + ", chunkSize: " + chunkSize() + ")";
    }
}
