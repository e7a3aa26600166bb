package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rill.buffer.pool.SizeClasses;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PooledByteBufAllocatorTest {

    /** A private allocator per test, so metrics start from zero. */
    private static PooledByteBufAllocator newAllocator() {
        return new PooledByteBufAllocator(true, 2, 2, 8192, 9);
    }

    private static void assertNothingPinned(PooledByteBufAllocator alloc) {
        assertEquals(0, alloc.metric().pinnedHeapMemory(), alloc.metric().toString());
        assertEquals(0, alloc.metric().pinnedDirectMemory(), alloc.metric().toString());
    }

    @Test
    void everySizeClassBoundaryAllocatesWritesAndReturnsToZero() {
        PooledByteBufAllocator alloc = newAllocator();
        SizeClasses sizes = alloc.sizeClasses();
        List<ByteBuf> live = new ArrayList<>();
        for (int i = 0; i < sizes.count(); i++) {
            int size = sizes.size(i);
            for (int n : new int[] {size - 1, size, size + 1}) {
                for (boolean direct : new boolean[] {false, true}) {
                    ByteBuf buf = direct ? alloc.directBuffer(n, n) : alloc.heapBuffer(n, n);
                    assertEquals(n, buf.capacity());
                    if (n > 0) {
                        buf.setByte(0, 1).setByte(n - 1, 2);
                    }
                    live.add(buf);
                }
            }
        }
        // Every region is distinct: writing each buffer's first byte must not change another's.
        for (int i = 0; i < live.size(); i++) {
            ByteBuf buf = live.get(i);
            if (buf.capacity() > 1) {
                buf.setByte(0, i);
            }
        }
        for (int i = 0; i < live.size(); i++) {
            ByteBuf buf = live.get(i);
            if (buf.capacity() > 1) {
                assertEquals((byte) i, buf.getByte(0), "buffer " + i);
            }
        }
        assertTrue(alloc.metric().pinnedDirectMemory() > 0);
        live.forEach(ByteBuf::release);
        assertNothingPinned(alloc);
        alloc.freeCurrentThreadCache();
        assertEquals(0, alloc.metric().numThreadLocalCaches());
    }

    @Test
    void releasedRegionsAreReusedThroughTheThreadCache() {
        PooledByteBufAllocator alloc = newAllocator();
        ByteBuf a = alloc.heapBuffer(100);
        byte[] array = a.array();
        int offset = a.arrayOffset();
        a.release();
        ByteBuf b = alloc.heapBuffer(100);
        assertEquals(offset, b.arrayOffset());
        assertTrue(array == b.array());
        b.release();
        assertTrue(alloc.metric().cacheHits() >= 1);
        alloc.freeCurrentThreadCache();
    }

    @Test
    void doubleReleaseThrowsAndDoesNotFreeTheRegionTwice() {
        PooledByteBufAllocator alloc = newAllocator();
        ByteBuf a = alloc.directBuffer(64);
        a.release();
        assertThrows(IllegalReferenceCountException.class, a::release);
        ByteBuf b = alloc.directBuffer(64);
        ByteBuf c = alloc.directBuffer(64);
        b.setLong(0, 1);
        c.setLong(0, 2);
        assertEquals(1, b.getLong(0));
        assertNotSame(b.nioBuffer(0, 8), c.nioBuffer(0, 8));
        b.release();
        c.release();
        assertNothingPinned(alloc);
        alloc.freeCurrentThreadCache();
    }

    @Test
    void growingAPooledBufferMovesItWithinThePool() {
        PooledByteBufAllocator alloc = newAllocator();
        ByteBuf buf = alloc.heapBuffer(16);
        for (int i = 0; i < 100_000; i++) {
            buf.writeByte(i);
        }
        for (int i = 0; i < 100_000; i++) {
            assertEquals((byte) i, buf.getByte(i));
        }
        buf.capacity(10);
        buf.release();
        assertNothingPinned(alloc);
        alloc.freeCurrentThreadCache();
    }

    @Test
    void hugeBuffersAreUnpooledButCounted() {
        PooledByteBufAllocator alloc = newAllocator();
        int huge = alloc.metric().chunkSize() + 1;
        ByteBuf buf = alloc.heapBuffer(huge);
        assertEquals(huge, alloc.metric().pinnedHeapMemory());
        buf.setByte(huge - 1, 7);
        buf.release();
        assertNothingPinned(alloc);
        assertEquals(1, alloc.heapArenas().stream().mapToLong(a -> a.numHugeAllocations()).sum());
        alloc.freeCurrentThreadCache();
    }

    @Test
    void buffersAllocatedOnOneThreadCanBeReleasedOnAnother() throws Exception {
        PooledByteBufAllocator alloc = newAllocator();
        List<ByteBuf> bufs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            bufs.add(alloc.directBuffer(i % 3 == 0 ? 40_000 : 1 + i));
        }
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            other.submit(() -> {
                bufs.forEach(ByteBuf::release);
                alloc.freeCurrentThreadCache();
            }).get(30, TimeUnit.SECONDS);
        } finally {
            other.shutdownNow();
        }
        assertNothingPinned(alloc);
        alloc.freeCurrentThreadCache();
    }

    @Test
    void manyThreadsAllocatingAndReleasingAtOnceKeepTheBooksStraight() throws Exception {
        PooledByteBufAllocator alloc = newAllocator();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    java.util.Random random = new java.util.Random(seed);
                    List<ByteBuf> held = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        int size = random.nextInt(10) == 0 ? random.nextInt(200_000) : random.nextInt(2000);
                        ByteBuf buf = random.nextBoolean() ? alloc.heapBuffer(size) : alloc.directBuffer(size);
                        buf.writeInt(i);
                        held.add(buf);
                        if (held.size() > 32) {
                            ByteBuf victim = held.remove(random.nextInt(held.size()));
                            int expected = victim.getInt(0);
                            victim.release();
                            assertTrue(expected >= 0);
                        }
                    }
                    for (ByteBuf buf : held) {
                        buf.release();
                    }
                    alloc.freeCurrentThreadCache();
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertNothingPinned(alloc);
        assertEquals(0, alloc.metric().numThreadLocalCaches());
    }

    @Test
    void contentIsPrivateToEachBufferUnderConcurrency() throws Exception {
        PooledByteBufAllocator alloc = newAllocator();
        CompletableFuture<?>[] all = new CompletableFuture<?>[2];
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int t = 0; t < 2; t++) {
                int tag = t;
                all[t] = CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 5000; i++) {
                        ByteBuf buf = alloc.heapBuffer(64);
                        long v = (long) tag << 32 | i;
                        buf.writeLong(v).writeLong(v);
                        assertEquals(v, buf.getLong(8));
                        buf.release();
                    }
                    alloc.freeCurrentThreadCache();
                }, pool);
            }
            CompletableFuture.allOf(all).get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertNothingPinned(alloc);
    }

    @Test
    void metricsDescribeArenasAndChunks() {
        PooledByteBufAllocator alloc = newAllocator();
        ByteBuf buf = alloc.directBuffer(100_000);
        assertEquals(2, alloc.metric().directArenas().size());
        assertEquals(4 * 1024 * 1024, alloc.metric().usedDirectMemory());
        assertTrue(alloc.metric().toString().contains("threadCaches: 1"));
        assertFalse(alloc.metric().directArenas().get(0).chunkUsages().isEmpty()
                && alloc.metric().directArenas().get(1).chunkUsages().isEmpty());
        buf.release();
        alloc.freeCurrentThreadCache();
    }

    @Test
    void growthDoublesUpToFourMebibytesThenStepsByFour() {
        ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
        assertEquals(64, alloc.calculateNewCapacity(1, Integer.MAX_VALUE));
        assertEquals(1024, alloc.calculateNewCapacity(1000, Integer.MAX_VALUE));
        assertEquals(4 << 20, alloc.calculateNewCapacity(4 << 20, Integer.MAX_VALUE));
        assertEquals(8 << 20, alloc.calculateNewCapacity((4 << 20) + 1, Integer.MAX_VALUE));
        assertEquals(300, alloc.calculateNewCapacity(257, 300));
        assertEquals(Integer.MAX_VALUE, alloc.calculateNewCapacity(Integer.MAX_VALUE - 5, Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> alloc.calculateNewCapacity(10, 5));
    }

    @Test
    void defaultAllocatorIsPooled() {
        assertTrue(ByteBufAllocator.DEFAULT instanceof PooledByteBufAllocator);
        ByteBuf buf = ByteBufAllocator.DEFAULT.buffer();
        assertTrue(buf.isDirect());
        buf.release();
    }
}
