package io.rill.buffer;


/** The contract over pooled direct buffers. */
class PooledDirectByteBufTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return PooledHeapByteBufTest.ALLOC.directBuffer(capacity, maxCapacity);
    }
}
