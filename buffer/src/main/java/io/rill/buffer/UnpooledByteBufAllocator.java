package io.rill.buffer;

/**
 * Allocates every buffer fresh: {@code new byte[]} or {@link java.nio.ByteBuffer#allocateDirect}.
 * Release only drops the reference; the garbage collector frees the memory.
 */
public final class UnpooledByteBufAllocator extends AbstractByteBufAllocator {

    /** Prefers direct buffers, like the pooled default. */
    public static final UnpooledByteBufAllocator DEFAULT = new UnpooledByteBufAllocator(true);

    /**
     * An allocator of fresh, unpooled buffers.
     *
     * @param preferDirect whether {@code buffer()} and composites default to direct memory
     */
    public UnpooledByteBufAllocator(boolean preferDirect) {
        super(preferDirect);
    }

    @Override
    ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return toLeakAware(new HeapByteBuf(this, new byte[initialCapacity], maxCapacity));
    }

    @Override
    ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return toLeakAware(new DirectByteBuf(this, java.nio.ByteBuffer.allocateDirect(initialCapacity), maxCapacity));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }
}
