package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rill.util.ResourceLeakDetector;
import io.rill.util.concurrent.FastThreadLocalThread;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pooled buffers are small handles whose per-allocation state ({@link MemoryRegion}) is recycled
 * through the thread cache (issue 16's garbage target). Recycling must not let a stale reference
 * reach the region's next owner: these tests make the next buffer reuse the very region, then
 * use the old reference, its views and its leak-aware wrapper every way there is, and check that
 * each use fails loudly and the new buffer's bytes and count stay untouched
 * (docs/security-cases.md, case R-04).
 *
 * <p>Allocations run on a {@link FastThreadLocalThread}: only such threads (event loops) get
 * caching thread caches, and so region recycling.
 */
class RecycledRegionTest {

    private static final long SECRET = 0x5EC2E75EC2E75EC2L;

    private final PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 1, 8192, 9);

    /** Runs {@code body} on a fresh caching thread and rethrows what it threw. */
    private void onCachingThread(Executable body) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new FastThreadLocalThread(() -> {
            try {
                body.execute();
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            } finally {
                alloc.freeCurrentThreadCache();
            }
        }, "recycling");
        thread.start();
        try {
            done.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private ByteBuf allocate(boolean direct) {
        return direct ? alloc.directBuffer(64) : alloc.heapBuffer(64);
    }

    /** The memory handle behind what the allocator returned (a leak-aware view under PARANOID). */
    private static AbstractMemoryByteBuf<?> handle(ByteBuf buf) {
        ByteBuf raw = buf instanceof LeakAwareByteBuf ? buf.unwrap() : buf;
        return (AbstractMemoryByteBuf<?>) raw;
    }

    /** Every way to use a buffer; each must throw IllegalReferenceCountException on a released one. */
    private static List<Executable> everyAccess(ByteBuf stale, ByteBuf target) {
        List<Executable> uses = new ArrayList<>();
        uses.add(() -> stale.getByte(0));
        uses.add(() -> stale.getLong(0));
        uses.add(() -> stale.getIntLE(4));
        uses.add(() -> stale.getBytes(0, new byte[8]));
        uses.add(() -> stale.getBytes(0, ByteBuffer.allocate(8)));
        uses.add(() -> stale.getBytes(0, target, 0, 8));
        uses.add(() -> stale.setByte(0, 1));
        uses.add(() -> stale.setLong(0, 0));
        uses.add(() -> stale.setBytes(0, new byte[8]));
        uses.add(() -> stale.setBytes(0, ByteBuffer.allocate(8)));
        uses.add(() -> stale.setZero(0, 8));
        uses.add(stale::readByte);
        uses.add(stale::readLong);
        uses.add(() -> stale.readBytes(new byte[4]));
        uses.add(() -> stale.writeByte(1));
        uses.add(() -> stale.writeLong(SECRET));
        uses.add(() -> stale.writeBytes(new byte[4]));
        uses.add(() -> stale.nioBuffer(0, 8));
        uses.add(() -> stale.ioView(0, 8, 0));
        if (!(stale instanceof SlicedByteBuf)) { // a slice refuses any capacity change, released or not
            uses.add(() -> stale.capacity(128));
        }
        uses.add(() -> stale.ensureWritable(1000));
        uses.add(stale::retain);
        uses.add(() -> stale.retain(3));
        uses.add(stale::release);
        uses.add(() -> stale.release(2));
        uses.add(() -> stale.slice(0, 8));
        uses.add(stale::duplicate);
        uses.add(() -> stale.retainedSlice(0, 8));
        uses.add(stale::retainedDuplicate);
        uses.add(() -> stale.copy(0, 8));
        uses.add(() -> stale.forEachByte(0, 8, b -> true));
        return uses;
    }

    private static void assertEveryAccessFails(String what, ByteBuf stale) {
        ByteBuf target = Unpooled.buffer(8);
        try {
            List<Executable> uses = everyAccess(stale, target);
            for (int i = 0; i < uses.size(); i++) {
                assertThrows(IllegalReferenceCountException.class, uses.get(i), what + ", use #" + i);
            }
        } finally {
            target.release();
        }
        assertEquals(0, stale.refCnt(), what + " reports itself released");
    }

    private static void assertUntouched(ByteBuf fresh) {
        assertEquals(1, fresh.refCnt());
        assertEquals(SECRET, fresh.getLong(0));
        assertEquals(8, fresh.writerIndex());
        assertEquals(0, fresh.readerIndex());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void r04_staleBufferFailsLoudlyAfterItsRegionServesTheNextBuffer(boolean direct) throws Exception {
        onCachingThread(() -> {
            ByteBuf old = allocate(direct).writeLong(0x1111111111111111L);
            AbstractMemoryByteBuf<?> oldHandle = handle(old);
            MemoryRegion<?> region = oldHandle.region;
            ByteBuf oldSlice = old.slice(0, 8);
            ByteBuf oldDuplicate = old.duplicate();
            assertTrue(old.release());

            ByteBuf fresh = allocate(direct).writeLong(SECRET);
            try {
                assertSame(region, handle(fresh).region, "the new buffer reuses the released region");
                assertNotSame(oldHandle, handle(fresh), "handles are never reused");
                assertEveryAccessFails("stale buffer", old);
                assertEveryAccessFails("stale handle", oldHandle);
                assertEveryAccessFails("stale slice", oldSlice);
                assertEveryAccessFails("stale duplicate", oldDuplicate);
                assertUntouched(fresh);
            } finally {
                fresh.release();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void r04_staleRetainedViewFailsAfterTheBufferBehindItWasRecycled(boolean direct) throws Exception {
        onCachingThread(() -> {
            ByteBuf old = allocate(direct).writeLong(0x2222222222222222L);
            ByteBuf retainedSlice = old.retainedSlice(0, 8);
            ByteBuf retainedDuplicate = old.retainedDuplicate();
            old.release();
            retainedSlice.release();
            assertTrue(retainedDuplicate.release(), "the last view frees the buffer");

            ByteBuf fresh = allocate(direct).writeLong(SECRET);
            try {
                assertEveryAccessFails("stale retained slice", retainedSlice);
                assertEveryAccessFails("stale retained duplicate", retainedDuplicate);
                assertEveryAccessFails("stale buffer", old);
                assertUntouched(fresh);
            } finally {
                fresh.release();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void r04_staleLeakAwareBufferFailsUnderParanoid(boolean direct) throws Exception {
        ResourceLeakDetector.Level saved = ResourceLeakDetector.level();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        try {
            onCachingThread(() -> {
                ByteBuf old = allocate(direct).writeLong(1);
                assertTrue(old instanceof LeakAwareByteBuf, "PARANOID wraps every buffer");
                old.release();
                ByteBuf fresh = allocate(direct).writeLong(SECRET);
                try {
                    assertEveryAccessFails("stale leak-aware buffer", old);
                    assertUntouched(fresh);
                } finally {
                    fresh.release();
                }
            });
        } finally {
            ResourceLeakDetector.setLevel(saved);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void releaseAfterTheAllocatingThreadEndedFreesWithoutRecycling(boolean direct) throws Exception {
        List<ByteBuf> handedOver = new ArrayList<>();
        List<MemoryRegion<?>> regions = new ArrayList<>();
        onCachingThread(() -> {
            ByteBuf buf = allocate(direct).writeLong(3);
            regions.add(handle(buf).region);
            handedOver.add(buf);
        });
        // Released on this (non-caching) thread, after the allocating thread is gone.
        ByteBuf buf = handedOver.get(0);
        assertTrue(buf.release());
        assertThrows(IllegalReferenceCountException.class, () -> buf.getLong(0));
        onCachingThread(() -> {
            ByteBuf next = allocate(direct);
            try {
                assertNotSame(regions.get(0), handle(next).region, "a foreign release drops the region");
            } finally {
                next.release();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void crossThreadReleaseWhileTheOwnerKeepsAllocatingStaysCorrect(boolean direct) throws Exception {
        onCachingThread(() -> {
            ByteBuf first = allocate(direct).writeLong(4);
            MemoryRegion<?> region = handle(first).region;
            CompletableFuture.runAsync(first::release).get(10, TimeUnit.SECONDS);
            ByteBuf second = allocate(direct).writeLong(SECRET);
            try {
                assertNotSame(region, handle(second).region, "not stashed by the releasing thread");
                assertThrows(IllegalReferenceCountException.class, () -> first.getLong(0));
                assertUntouched(second);
            } finally {
                second.release();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void growingKeepsTheRegionAndARecycledRegionStartsFresh(boolean direct) throws Exception {
        onCachingThread(() -> {
            ByteBuf buf = direct ? alloc.directBuffer(16, 100_000) : alloc.heapBuffer(16, 100_000);
            buf.writeLong(SECRET);
            MemoryRegion<?> region = handle(buf).region;
            buf.capacity(20); // within the size class: in place
            buf.capacity(50_000); // a new run: reallocated, same region object
            assertSame(region, handle(buf).region);
            assertEquals(50_000, buf.capacity());
            assertEquals(SECRET, buf.getLong(0));
            buf.release();

            ByteBuf next = direct ? alloc.directBuffer(8, 8) : alloc.heapBuffer(8, 8);
            try {
                assertSame(region, handle(next).region);
                assertEquals(8, next.capacity());
                assertEquals(8, next.maxCapacity(), "maxCapacity belongs to the new buffer");
                assertEquals(1, next.refCnt());
                assertThrows(IndexOutOfBoundsException.class, () -> next.getLong(4));
            } finally {
                next.release();
            }
        });
    }
}
