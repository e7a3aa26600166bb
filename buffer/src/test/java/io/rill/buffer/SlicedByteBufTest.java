package io.rill.buffer;


/** The contract over a slice in the middle of a larger pooled buffer. */
class SlicedByteBufTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf parent = PooledHeapByteBufTest.ALLOC.directBuffer(capacity + 16).writeZero(capacity + 16);
        return parent.slice(8, capacity).clear();
    }

    @Override
    boolean growableKind() {
        return false;
    }
}
