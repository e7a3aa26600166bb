package io.rill.buffer.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pool's bookkeeping on handles and offsets, without any buffer. */
class PoolBookkeepingTest {

    private static final int PAGE = 8192;
    private static final int CHUNK = PAGE << 9;

    /** Records what the arena hands out. */
    private static final class Region implements PooledMemory<byte[]> {
        PoolChunk<byte[]> chunk;
        long handle;
        int offset;
        int length;
        int sizeIdx;
        byte[] memory;

        @Override
        public void init(PoolArena<byte[]> arena, PoolChunk<byte[]> chunk, long handle, byte[] memory, int offset,
                         int length, int sizeIdx, PoolThreadCache cache) {
            this.chunk = chunk;
            this.handle = handle;
            this.memory = memory;
            this.offset = offset;
            this.length = length;
            this.sizeIdx = sizeIdx;
        }
    }

    @Test
    void handlesRoundTripEveryField() {
        long h = PoolChunk.handle(32767, 511, true, 0x7fffffff);
        assertEquals(32767, PoolChunk.runOffset(h));
        assertEquals(511, PoolChunk.runPages(h));
        assertTrue(PoolChunk.isSlab(h));
        assertEquals(0x7fffffff, PoolChunk.bitmapIdx(h));
        long run = PoolChunk.handle(3, 4, false, 0);
        assertEquals(3, PoolChunk.runOffset(run));
        assertEquals(4, PoolChunk.runPages(run));
        assertFalse(PoolChunk.isSlab(run));
    }

    @Test
    void sizeClassesRoundUpWithBoundedWasteAndEndAtTheChunk() {
        SizeClasses sizes = new SizeClasses(PAGE, CHUNK);
        assertEquals(CHUNK, sizes.size(sizes.count() - 1));
        assertEquals(-1, sizes.sizeIndex(CHUNK + 1));
        assertEquals(0, sizes.sizeIndex(0));
        assertEquals(16, sizes.size(sizes.sizeIndex(1)));
        assertEquals(80, sizes.size(sizes.sizeIndex(65)));
        assertEquals(28 * 1024, sizes.size(sizes.smallCount() - 1));
        for (int i = 0; i < sizes.count(); i++) {
            int size = sizes.size(i);
            assertEquals(i, sizes.sizeIndex(size), "size " + size);
            assertEquals(i, sizes.sizeIndex(size - 1 <= (i == 0 ? 0 : sizes.size(i - 1)) ? size : size - 1));
            if (i + 1 < sizes.count()) {
                assertEquals(i + 1, sizes.sizeIndex(size + 1));
                assertTrue(sizes.size(i + 1) - size <= Math.max(16, size / 4), "gap after " + size);
            }
            if (!sizes.isSmall(i)) {
                assertEquals(0, size % PAGE);
            }
            assertTrue(sizes.runPages(i) * PAGE % size == 0 || !sizes.isSmall(i));
        }
    }

    @Test
    void runsAreFirstFitAndFreedRunsMerge() {
        PoolChunk<byte[]> chunk = new PoolChunk<>(null, new byte[0], PAGE, CHUNK);
        long a = chunk.allocateRun(3);
        long b = chunk.allocateRun(5);
        long c = chunk.allocateRun(100);
        assertEquals(0, PoolChunk.runOffset(a));
        assertEquals(3, PoolChunk.runOffset(b));
        assertEquals(8, PoolChunk.runOffset(c));
        assertEquals(512 - 108, chunk.freePages());
        chunk.freeAllocatedRun(0, 3);
        chunk.freeAllocatedRun(3, 5);
        assertEquals(0, PoolChunk.runOffset(chunk.allocateRun(8)), "the two freed runs merged");
        assertEquals(-1, chunk.allocateRun(512));
        assertThrows(IllegalStateException.class, () -> chunk.freeAllocatedRun(200, 1));
    }

    @Test
    void aFullChunkRefusesAndAnEmptiedChunkTakesAWholeRunAgain() {
        PoolChunk<byte[]> chunk = new PoolChunk<>(null, new byte[0], PAGE, CHUNK);
        List<Long> runs = new ArrayList<>();
        Random random = new Random(1);
        long h;
        while ((h = chunk.allocateRun(1 + random.nextInt(20))) >= 0) {
            runs.add(h);
        }
        int more = 0;
        while (chunk.allocateRun(1) >= 0) {
            more++;
        }
        assertEquals(0, chunk.freePages());
        java.util.Collections.shuffle(runs, random);
        for (long run : runs) {
            chunk.freeAllocatedRun(PoolChunk.runOffset(run), PoolChunk.runPages(run));
        }
        assertEquals(more, 512 - chunk.freePages());
        assertTrue(more < 20);
    }

    @Test
    void arenaHandsOutDisjointRegionsAndTakesThemBack() {
        SizeClasses sizes = new SizeClasses(PAGE, CHUNK);
        PoolArena<byte[]> arena = new PoolArena.Heap(sizes, create -> null);
        Random random = new Random(7);
        List<Region> regions = new ArrayList<>();
        Set<Long> starts = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            Region r = new Region();
            int size = random.nextInt(4) == 0 ? 1 + random.nextInt(300_000) : 1 + random.nextInt(3000);
            arena.allocate(null, size, r);
            assertTrue(r.offset + sizes.size(r.sizeIdx) <= r.memory.length);
            long key = (long) System.identityHashCode(r.memory) << 32 | r.offset;
            assertTrue(starts.add(key), "region handed out twice");
            regions.add(r);
        }
        // Mark each region's bytes with its number and check no one else overwrote them.
        for (int i = 0; i < regions.size(); i++) {
            Region r = regions.get(i);
            java.util.Arrays.fill(r.memory, r.offset, r.offset + r.length, (byte) i);
        }
        for (int i = 0; i < regions.size(); i++) {
            Region r = regions.get(i);
            for (int k = r.offset; k < r.offset + r.length; k++) {
                assertEquals((byte) i, r.memory[k]);
            }
        }
        assertTrue(arena.pinnedMemory() > 0);
        for (Region r : regions) {
            arena.free(r.chunk, r.handle, r.sizeIdx, r.memory);
        }
        assertEquals(0, arena.pinnedMemory());
        assertEquals(arena.numChunks(), arena.numEmptyChunks(), "every chunk is empty, kept for reuse");
        int chunks = arena.numChunks();
        assertEquals(chunks, arena.freeIdleChunks(0));
        assertEquals(0, arena.numChunks());
        assertEquals((long) chunks * CHUNK, arena.returnedBytes());
        Region again = regions.get(0);
        assertThrows(IllegalStateException.class,
                () -> arena.free(again.chunk, again.handle, again.sizeIdx, again.memory));
    }

    @Test
    void threadCacheServesFreedRegionsAndTrimsIdleOnes() {
        SizeClasses sizes = new SizeClasses(PAGE, CHUNK);
        PoolThreadCache[] holder = new PoolThreadCache[1];
        PoolArena<byte[]> arena = new PoolArena.Heap(sizes, create -> holder[0]);
        PoolThreadCache cache = new PoolThreadCache(arena, null, 8, 8, 64 * 1024, 1000);
        holder[0] = cache;
        Region a = new Region();
        arena.allocate(cache, 100, a);
        arena.free(a.chunk, a.handle, a.sizeIdx, a.memory);
        assertEquals(1, cache.size());
        Region b = new Region();
        arena.allocate(cache, 100, b);
        assertEquals(a.handle, b.handle);
        assertEquals(1, cache.hits());
        arena.free(b.chunk, b.handle, b.sizeIdx, b.memory);
        cache.trim();
        assertEquals(1, cache.size(), "used since the last trim: kept");
        cache.trim();
        assertEquals(0, cache.size(), "idle since the last trim: freed");
        cache.free();
        assertTrue(cache.isFreed());
        assertEquals(0, arena.numThreadCaches());
        assertEquals(0, arena.pinnedMemory());
    }

    @Test
    void metricsCountReleasesAndPinnedBytesThatOnlyWentThroughTheCache() {
        SizeClasses sizes = new SizeClasses(PAGE, CHUNK);
        PoolThreadCache[] holder = new PoolThreadCache[1];
        PoolArena<byte[]> arena = new PoolArena.Heap(sizes, create -> holder[0]);
        PoolThreadCache cache = new PoolThreadCache(arena, null, 8, 8, 64 * 1024, 1000);
        holder[0] = cache;
        Region a = new Region();
        arena.allocate(cache, 100, a);
        long size = sizes.size(a.sizeIdx);
        assertEquals(size, arena.pinnedMemory());
        arena.free(a.chunk, a.handle, a.sizeIdx, a.memory, cache);
        assertEquals(0, arena.pinnedMemory(), "stashed in the cache, not pinned");
        assertEquals(1, arena.numDeallocations());
        Region b = new Region();
        arena.allocate(cache, 100, b);
        assertEquals(size, arena.pinnedMemory(), "served by the cache: pinned again");
        arena.free(b.chunk, b.handle, b.sizeIdx, b.memory);
        assertEquals(2, arena.numDeallocations());
        cache.free();
        assertEquals(2, arena.numDeallocations(), "a freed cache hands its count to the arena");
        assertEquals(0, arena.pinnedMemory());
    }
}
