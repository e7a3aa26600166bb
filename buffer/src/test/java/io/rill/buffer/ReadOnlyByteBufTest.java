package io.rill.buffer;


/** The read half of the contract over a read-only view. */
class ReadOnlyByteBufTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new HeapByteBuf(UnpooledByteBufAllocator.DEFAULT, new byte[capacity], maxCapacity).asReadOnly();
    }

    @Override
    ByteBuf untrackedFilled(byte[] content) {
        return new HeapByteBuf(UnpooledByteBufAllocator.DEFAULT, content.clone(), content.length)
                .writerIndex(content.length).asReadOnly();
    }

    @Override
    boolean writableKind() {
        return false;
    }
}
