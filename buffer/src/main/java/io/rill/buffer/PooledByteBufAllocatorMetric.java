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

    /** The heap arenas; each reports chunks, memory, caches and allocation counts. */
    public List<PoolArena<byte[]>> heapArenas() {
        return allocator.heapArenas();
    }

    public List<PoolArena<ByteBuffer>> directArenas() {
        return allocator.directArenas();
    }

    public int numThreadLocalCaches() {
        return allocator.liveCaches().size();
    }

    public int chunkSize() {
        return allocator.sizeClasses().chunkSize();
    }

    public int pageSize() {
        return allocator.sizeClasses().pageSize();
    }

    /** Memory held by heap arenas: chunks plus huge allocations. */
    public long usedHeapMemory() {
        long sum = 0;
        for (PoolArena<?> a : heapArenas()) {
            sum += a.usedMemory();
        }
        return sum;
    }

    public long usedDirectMemory() {
        long sum = 0;
        for (PoolArena<?> a : directArenas()) {
            sum += a.usedMemory();
        }
        return sum;
    }

    /** Bytes held by live heap buffers (rounded to their size class). */
    public long pinnedHeapMemory() {
        long sum = 0;
        for (PoolArena<?> a : heapArenas()) {
            sum += a.pinnedMemory();
        }
        return sum;
    }

    public long pinnedDirectMemory() {
        long sum = 0;
        for (PoolArena<?> a : directArenas()) {
            sum += a.pinnedMemory();
        }
        return sum;
    }

    /** Allocations served by a thread cache, over live and retired caches. */
    public long cacheHits() {
        long sum = allocator.freedCacheHits();
        for (PoolThreadCache c : allocator.liveCaches()) {
            sum += c.hits();
        }
        return sum;
    }

    /** Chunks held with no page in use, waiting out the idle time before they are freed. */
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

    /** Chunks freed after idling, heap and direct. */
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

    /** Bytes of heap chunks and huge heap buffers freed (left to the GC, which owns the heap). */
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
     */
    public long returnedDirectMemory() {
        long sum = 0;
        for (PoolArena<?> a : directArenas()) {
            sum += a.returnedBytes();
        }
        return sum;
    }

    /** True if freed direct memory goes back at once (JDK 22+, {@code rill.allocator.releaseDirectMemory}). */
    public boolean directMemoryReleasedPromptly() {
        List<PoolArena<ByteBuffer>> direct = directArenas();
        return !direct.isEmpty() && direct.get(0).freesMemoryPromptly();
    }

    /** Thread-cache trims run (every trim interval of allocations, by the periodic pass, or explicitly). */
    public long cacheTrims() {
        long sum = allocator.freedCacheTrims();
        for (PoolThreadCache c : allocator.liveCaches()) {
            sum += c.trims();
        }
        return sum;
    }

    /** Bytes that trims moved from thread caches back to their arenas. */
    public long cacheTrimmedBytes() {
        long sum = allocator.freedCacheTrimmedBytes();
        for (PoolThreadCache c : allocator.liveCaches()) {
            sum += c.trimmedBytes();
        }
        return sum;
    }

    /** Allocations a thread cache could not serve (they took an arena lock). */
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
