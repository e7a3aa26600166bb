package io.rill.buffer;


/** The contract over an unpooled heap buffer. */
class HeapByteBufTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new HeapByteBuf(UnpooledByteBufAllocator.DEFAULT, new byte[capacity], maxCapacity);
    }
}
