package io.rill.buffer;

/**
 * Creates buffers. Implementations are thread-safe. {@link #DEFAULT} is the pooled allocator
 * unless {@code rill.allocator.type=unpooled}.
 *
 * <p>Every method that takes {@code initialCapacity} and {@code maxCapacity} throws
 * {@link IllegalArgumentException} when {@code initialCapacity < 0} or
 * {@code initialCapacity > maxCapacity}.
 */
public interface ByteBufAllocator {

    /** The process-wide allocator chosen by {@code rill.allocator.type}. */
    ByteBufAllocator DEFAULT = AbstractByteBufAllocator.chooseDefault();

    /** A buffer of the allocator's preferred kind (direct for the default allocators). */
    ByteBuf buffer();

    ByteBuf buffer(int initialCapacity);

    ByteBuf buffer(int initialCapacity, int maxCapacity);

    /** A buffer suited to socket I/O: direct, so the JDK needs no bounce copy. */
    ByteBuf ioBuffer();

    ByteBuf ioBuffer(int initialCapacity);

    ByteBuf ioBuffer(int initialCapacity, int maxCapacity);

    ByteBuf heapBuffer();

    ByteBuf heapBuffer(int initialCapacity);

    ByteBuf heapBuffer(int initialCapacity, int maxCapacity);

    ByteBuf directBuffer();

    ByteBuf directBuffer(int initialCapacity);

    ByteBuf directBuffer(int initialCapacity, int maxCapacity);

    /** An empty composite of the preferred kind, consolidating beyond the default component limit. */
    CompositeByteBuf compositeBuffer();

    CompositeByteBuf compositeBuffer(int maxNumComponents);

    CompositeByteBuf compositeHeapBuffer();

    CompositeByteBuf compositeHeapBuffer(int maxNumComponents);

    CompositeByteBuf compositeDirectBuffer();

    CompositeByteBuf compositeDirectBuffer(int maxNumComponents);

    /** True if direct buffers from this allocator come from a pool. */
    boolean isDirectBufferPooled();

    /**
     * The capacity a buffer grows to when it needs {@code minNewCapacity}: doubling from 64 up
     * to 4 MiB, then steps of 4 MiB (doubling a huge buffer would waste too much), never above
     * {@code maxCapacity}.
     */
    int calculateNewCapacity(int minNewCapacity, int maxCapacity);
}
