package io.rill.buffer;


/** The contract over a duplicate of an unpooled heap buffer. */
class DuplicatedByteBufTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new HeapByteBuf(UnpooledByteBufAllocator.DEFAULT, new byte[capacity], maxCapacity).duplicate();
    }
}
