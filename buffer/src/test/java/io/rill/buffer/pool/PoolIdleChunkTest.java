package io.rill.buffer.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rill.util.concurrent.ManualTicker;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Empty chunks wait out an idle time on the arena's clock, then their memory is freed. */
class PoolIdleChunkTest {

    private static final int PAGE = 8192;
    private static final int CHUNK = PAGE << 9;
    private static final long IDLE = TimeUnit.SECONDS.toNanos(10);

    private final SizeClasses sizes = new SizeClasses(PAGE, CHUNK);
    private final ManualTicker ticker = new ManualTicker();
    private final PoolArena<byte[]> arena = new PoolArena.Heap(sizes, create -> null, null, ticker);

    /** Where the arena put an allocation. */
    private static final class Region<T> implements PooledMemory<T> {
        PoolChunk<T> chunk;
        long handle;
        int sizeIdx;
        T memory;

        @Override
        public void init(PoolArena<T> arena, PoolChunk<T> chunk, long handle, T memory, int offset, int length,
                         int sizeIdx, PoolThreadCache cache) {
            this.chunk = chunk;
            this.handle = handle;
            this.memory = memory;
            this.sizeIdx = sizeIdx;
        }

        void freeTo(PoolArena<T> arena) {
            arena.free(chunk, handle, sizeIdx, memory);
        }
    }

    private Region<byte[]> allocate(int size) {
        Region<byte[]> r = new Region<>();
        arena.allocate(null, size, r);
        return r;
    }

    @Test
    void emptyChunksAreKeptForTheIdleTimeThenFreed() {
        Region<byte[]> a = allocate(3 << 20);
        Region<byte[]> b = allocate(3 << 20);
        assertNotSame(a.memory, b.memory, "two 3 MiB runs need two chunks");
        a.freeTo(arena);
        b.freeTo(arena);
        assertEquals(2, arena.numChunks());
        assertEquals(2, arena.numEmptyChunks());
        assertEquals(2L * CHUNK, arena.usedMemory(), "still held: empty is not yet idle");

        ticker.advance(IDLE - 1, TimeUnit.NANOSECONDS);
        assertEquals(0, arena.freeIdleChunks(IDLE));
        ticker.advance(1, TimeUnit.NANOSECONDS);
        assertEquals(2, arena.freeIdleChunks(IDLE));

        assertEquals(0, arena.numChunks());
        assertEquals(0, arena.usedMemory());
        assertEquals(2, arena.numChunksFreed());
        assertEquals(2L * CHUNK, arena.returnedBytes());
    }

    @Test
    void aChunkReusedWithinTheIdleTimeStartsItsIdleTimeAgain() {
        Region<byte[]> first = allocate(64 * 1024);
        first.freeTo(arena);
        ticker.advance(6, TimeUnit.SECONDS);
        Region<byte[]> again = allocate(64 * 1024);
        assertSame(first.memory, again.memory, "the empty chunk was taken back, no new memory");
        again.freeTo(arena);

        ticker.advance(6, TimeUnit.SECONDS);
        assertEquals(0, arena.freeIdleChunks(IDLE), "empty for 6 s only");
        ticker.advance(4, TimeUnit.SECONDS);
        assertEquals(1, arena.freeIdleChunks(IDLE));
        assertEquals(1, arena.numChunksFreed());
    }

    @Test
    void runsGoToChunksInUseBeforeEmptyOnesSoThoseCanIdle() {
        Region<byte[]> inUse = allocate(3 << 20);
        Region<byte[]> other = allocate(3 << 20);
        other.freeTo(arena);
        assertEquals(1, arena.numEmptyChunks());

        Region<byte[]> small = allocate(100);
        Region<byte[]> normal = allocate(256 * 1024);
        assertSame(inUse.memory, small.memory);
        assertSame(inUse.memory, normal.memory);
        assertEquals(1, arena.numEmptyChunks());

        Region<byte[]> big = allocate(2 << 20);
        assertSame(other.memory, big.memory, "no room left in the chunk in use: the empty one is reused");
        assertEquals(0, arena.numEmptyChunks());
        for (Region<byte[]> r : java.util.List.of(inUse, small, normal, big)) {
            r.freeTo(arena);
        }
        assertEquals(2, arena.freeIdleChunks(0));
    }

    @Test
    void chunksEmptiedLaterAreFreedLater() {
        Region<byte[]> a = allocate(3 << 20);
        Region<byte[]> b = allocate(3 << 20);
        a.freeTo(arena);
        ticker.advance(5, TimeUnit.SECONDS);
        b.freeTo(arena);
        ticker.advance(5, TimeUnit.SECONDS);
        assertEquals(1, arena.freeIdleChunks(IDLE));
        assertEquals(1, arena.numEmptyChunks());
        ticker.advance(5, TimeUnit.SECONDS);
        assertEquals(1, arena.freeIdleChunks(IDLE));
        assertEquals(0, arena.numChunks());
    }

    @Test
    void directMemoryIsReleasedAtOnceFromJdk22() {
        PoolArena<ByteBuffer> direct = new PoolArena.Direct(sizes, create -> null, null, ticker);
        assertEquals(Runtime.version().feature() >= 22, direct.freesMemoryPromptly(),
                "java.lang.foreign is used exactly where it is final");
        assumeTrue(direct.freesMemoryPromptly());

        Region<ByteBuffer> run = new Region<>();
        direct.allocate(null, 64 * 1024, run);
        ByteBuffer chunkMemory = run.memory;
        chunkMemory.put(0, (byte) 1);
        run.freeTo(direct);
        assertEquals(1, chunkMemory.get(0), "an empty chunk keeps its memory until it idled");
        assertEquals(1, direct.freeIdleChunks(0));
        // The memory is gone now, not at some later collection: the JDK refuses any access to it.
        assertThrows(IllegalStateException.class, () -> chunkMemory.get(0));

        Region<ByteBuffer> huge = new Region<>();
        direct.allocate(null, CHUNK + 1, huge);
        ByteBuffer hugeMemory = huge.memory;
        huge.freeTo(direct);
        assertThrows(IllegalStateException.class, () -> hugeMemory.get(0), "a huge allocation is freed with its buffer");
        assertEquals(2L * CHUNK + 1, direct.returnedBytes());
    }
}
