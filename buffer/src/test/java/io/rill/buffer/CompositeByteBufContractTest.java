package io.rill.buffer;


/** The contract over a composite of three components (heap, direct, heap). */
class CompositeByteBufContractTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        CompositeByteBuf composite = UnpooledByteBufAllocator.DEFAULT.compositeHeapBuffer();
        int first = capacity / 3;
        int second = capacity / 3;
        int third = capacity - first - second;
        composite.addComponents(false, Unpooled.buffer(first).writeZero(first),
                Unpooled.directBuffer(second).writeZero(second), Unpooled.buffer(third).writeZero(third));
        return composite;
    }

    @Override
    boolean discardKeepsCapacity() {
        return false;
    }
}
