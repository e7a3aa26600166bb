package io.rill.buffer;


/** The contract over a leak-aware view of an unpooled direct buffer, always tracked. */
class LeakAwareByteBufTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf raw = new DirectByteBuf(UnpooledByteBufAllocator.DEFAULT, java.nio.ByteBuffer.allocateDirect(capacity), maxCapacity);
        io.rill.util.ResourceLeakTracker<ByteBuf> tracker = AbstractByteBufAllocator.LEAK_DETECTOR.track(raw);
        return tracker == null ? raw : new LeakAwareByteBuf((AbstractByteBuf) raw, tracker);
    }
}
