package io.rill.buffer;


/** The contract over pooled heap buffers (leak-aware views under PARANOID). */
class PooledHeapByteBufTest extends AbstractByteBufTest {

    static final PooledByteBufAllocator ALLOC = new PooledByteBufAllocator(false, 2, 2, 8192, 9);

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return ALLOC.heapBuffer(capacity, maxCapacity);
    }
}
