package io.rill.testsuite.socket;

import java.util.concurrent.atomic.AtomicInteger;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.CompositeByteBuf;
import io.rill.buffer.PooledByteBufAllocator;

/**
 * The pooled allocator with two twists for tests of running out of memory: its buffers cannot grow
 * past the capacity they were made with, so every growth of a decoder's cumulation comes back here
 * for a bigger buffer; and the {@code n}-th allocation once {@link #failAt} is armed throws the
 * {@link OutOfMemoryError} that {@code ByteBuffer.allocateDirect} throws at the direct-memory limit.
 */
final class FailingAllocator implements ByteBufAllocator {

    private final ByteBufAllocator pool = PooledByteBufAllocator.DEFAULT;
    /** Allocations left before the failing one; negative: never fail. */
    private final AtomicInteger countdown = new AtomicInteger(-1);
    private final AtomicInteger failures = new AtomicInteger();

    /** The {@code n}-th allocation from now (1 = the next) fails; the ones after it succeed again. */
    void failAt(int n) {
        countdown.set(n);
    }

    int failures() {
        return failures.get();
    }

    private void maybeFail(int capacity) {
        if (countdown.get() > 0 && countdown.decrementAndGet() == 0) {
            failures.incrementAndGet();
            throw new OutOfMemoryError("Cannot reserve " + capacity + " bytes of direct buffer memory (test)");
        }
    }

    @Override
    public ByteBuf buffer() {
        return buffer(256);
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return buffer(initialCapacity, Integer.MAX_VALUE);
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public ByteBuf ioBuffer() {
        return buffer();
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return buffer(initialCapacity);
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return buffer(initialCapacity, maxCapacity);
    }

    @Override
    public ByteBuf heapBuffer() {
        return heapBuffer(256);
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity) {
        return heapBuffer(initialCapacity, Integer.MAX_VALUE);
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
        maybeFail(initialCapacity);
        int capacity = Math.max(initialCapacity, 1);
        return pool.heapBuffer(capacity, Math.min(capacity, maxCapacity));
    }

    @Override
    public ByteBuf directBuffer() {
        return directBuffer(256);
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity) {
        return directBuffer(initialCapacity, Integer.MAX_VALUE);
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        maybeFail(initialCapacity);
        int capacity = Math.max(initialCapacity, 1);
        return pool.directBuffer(capacity, Math.min(capacity, maxCapacity));
    }

    @Override
    public CompositeByteBuf compositeBuffer() {
        return pool.compositeBuffer();
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return pool.compositeBuffer(maxNumComponents);
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer() {
        return pool.compositeHeapBuffer();
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return pool.compositeHeapBuffer(maxNumComponents);
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer() {
        return pool.compositeDirectBuffer();
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return pool.compositeDirectBuffer(maxNumComponents);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    @Override
    public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
        return pool.calculateNewCapacity(minNewCapacity, maxCapacity);
    }
}
