package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rill.util.RillProperties;
import io.rill.util.concurrent.DefaultEventExecutor;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.ManualTicker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pooled allocator gives a burst's memory back: event-loop caches are trimmed by a task on
 * their own loop, then chunks that idled long enough are freed. Time is a {@link ManualTicker},
 * and the background pass is off: the test runs {@link PooledByteBufAllocator#reclaimIdleMemory()}
 * itself, so every trim is one the test asked for.
 */
class PooledByteBufAllocatorReclaimTest {

    private static final int SIZE = 16 * 1024;
    private static final int BURST = 2000;

    private final ManualTicker ticker = new ManualTicker();
    private final PooledByteBufAllocator alloc = new PooledByteBufAllocator(true, 1, 1, 8192, 9,
            RillProperties.ALLOCATOR_SMALL_CACHE_SIZE, RillProperties.ALLOCATOR_NORMAL_CACHE_SIZE, ticker, 0);
    private final DefaultEventExecutor loop = new DefaultEventExecutor();

    @AfterEach
    void stopLoop() throws Exception {
        loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        assertTrue(loop.terminationFuture().await(10, TimeUnit.SECONDS));
    }

    /** Returns once every task queued on {@code e} before it has run. */
    private static void flush(EventExecutor e) throws Exception {
        e.submit(() -> { }).get(10, TimeUnit.SECONDS);
    }

    private void burstOnLoop() throws Exception {
        loop.submit(() -> {
            List<ByteBuf> held = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                held.add(alloc.directBuffer(SIZE).writeInt(i));
            }
            held.forEach(ByteBuf::release);
        }).get(30, TimeUnit.SECONDS);
    }

    private long idleTime() {
        return RillProperties.ALLOCATOR_CHUNK_IDLE_MILLIS;
    }

    @Test
    void aBurstOnAnEventLoopIsGivenBackAfterTheLoopWentQuiet() throws Exception {
        burstOnLoop();
        PooledByteBufAllocatorMetric metric = alloc.metric();
        assertEquals(0, metric.pinnedDirectMemory());
        int chunks = metric.directArenas().get(0).numChunks();
        assertTrue(chunks >= BURST * SIZE / metric.chunkSize(), metric.toString());
        assertTrue(metric.numEmptyChunks() < chunks, "the loop's cache still holds regions: " + metric);

        alloc.reclaimIdleMemory(); // asks the loop to trim; it reused nothing since, so everything goes
        flush(loop);
        assertTrue(metric.cacheTrims() >= 1, metric.toString());
        assertEquals((long) RillProperties.ALLOCATOR_SMALL_CACHE_SIZE * SIZE, metric.cacheTrimmedBytes());
        assertEquals(chunks, metric.numEmptyChunks(), "no chunk holds a region any more: " + metric);
        assertEquals((long) chunks * metric.chunkSize(), metric.usedDirectMemory(), "empty, but not idle yet");

        ticker.advance(idleTime() - 1, TimeUnit.MILLISECONDS);
        alloc.reclaimIdleMemory();
        assertEquals(0, metric.numChunksFreed(), "the idle time has not passed");
        ticker.advance(1, TimeUnit.MILLISECONDS);
        alloc.reclaimIdleMemory();

        assertEquals(chunks, metric.numChunksFreed(), metric.toString());
        assertEquals(0, metric.usedDirectMemory());
        assertEquals((long) chunks * metric.chunkSize(), metric.returnedDirectMemory());
        assertTrue(metric.toString().contains("chunksFreed: " + chunks), metric.toString());
    }

    @Test
    void aLoopThatKeepsReusingItsRegionsKeepsThem() throws Exception {
        Runnable steady = () -> {
            for (int i = 0; i < 10; i++) {
                alloc.directBuffer(SIZE).release();
            }
        };
        loop.submit(steady).get(10, TimeUnit.SECONDS);
        alloc.reclaimIdleMemory();
        flush(loop);
        long trimmed = alloc.metric().cacheTrimmedBytes();
        // Between two passes the loop serves its allocations from the cache: the next trim keeps them.
        loop.submit(steady).get(10, TimeUnit.SECONDS);
        alloc.reclaimIdleMemory();
        flush(loop);
        assertEquals(trimmed, alloc.metric().cacheTrimmedBytes(), alloc.metric().toString());
        assertTrue(alloc.metric().cacheTrims() >= 2);
        assertTrue(alloc.metric().pinnedDirectMemory() == 0);
    }

    @Test
    void aQuietLoopWithAnEmptyCacheGetsNoTask() throws Exception {
        loop.submit(() -> alloc.directBuffer(SIZE).release()).get(10, TimeUnit.SECONDS);
        alloc.reclaimIdleMemory();
        flush(loop);
        alloc.reclaimIdleMemory();
        flush(loop);
        long trims = alloc.metric().cacheTrims();
        alloc.reclaimIdleMemory();
        flush(loop);
        assertEquals(trims, alloc.metric().cacheTrims(), "nothing cached, nothing to ask for");
    }

    @Test
    void aCallerTrimsItsOwnCacheAndHugeBuffersAreFreedWithTheirBuffer() {
        ByteBuf huge = alloc.directBuffer(alloc.metric().chunkSize() + 1);
        huge.release();
        assertEquals(alloc.metric().chunkSize() + 1, alloc.metric().returnedDirectMemory());

        alloc.heapBuffer(SIZE).release();
        alloc.trimCurrentThreadCache();
        assertEquals(SIZE, alloc.metric().cacheTrimmedBytes());
        alloc.freeCurrentThreadCache();
        assertEquals(1, alloc.metric().cacheTrims(), "a retired cache keeps its count in the metrics");
        ticker.advance(idleTime(), TimeUnit.MILLISECONDS);
        assertEquals(1, alloc.reclaimIdleMemory());
        assertEquals(alloc.metric().chunkSize(), alloc.metric().returnedHeapMemory());
    }
}
