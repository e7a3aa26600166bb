package io.rill.buffer;

import java.nio.ByteBuffer;

/** The contract over an unpooled direct buffer. */
class DirectByteBufTest extends AbstractByteBufTest {

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new DirectByteBuf(UnpooledByteBufAllocator.DEFAULT, ByteBuffer.allocateDirect(capacity), maxCapacity);
    }
}
