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
    ByteBufAllocator DEFAULT = AllocatorChoice.DEFAULT;

    /**
     * {@return a new buffer of the allocator's preferred kind (direct for the default allocators)} The caller
     * owns it and must release it.
     */
    ByteBuf buffer();

    /**
     * {@return a new buffer of the preferred kind} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     */
    ByteBuf buffer(int initialCapacity);

    /**
     * {@return a new buffer of the preferred kind} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     * @param maxCapacity the capacity it may grow to
     */
    ByteBuf buffer(int initialCapacity, int maxCapacity);

    /**
     * {@return a new buffer suited to socket I/O: direct, so the JDK needs no bounce copy} The caller owns it
     * and must release it.
     */
    ByteBuf ioBuffer();

    /**
     * {@return a new buffer suited to socket I/O} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     */
    ByteBuf ioBuffer(int initialCapacity);

    /**
     * {@return a new buffer suited to socket I/O} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     * @param maxCapacity the capacity it may grow to
     */
    ByteBuf ioBuffer(int initialCapacity, int maxCapacity);

    /** {@return a new heap buffer} The caller owns it and must release it. */
    ByteBuf heapBuffer();

    /**
     * {@return a new heap buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     */
    ByteBuf heapBuffer(int initialCapacity);

    /**
     * {@return a new heap buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     * @param maxCapacity the capacity it may grow to
     */
    ByteBuf heapBuffer(int initialCapacity, int maxCapacity);

    /** {@return a new direct buffer} The caller owns it and must release it. */
    ByteBuf directBuffer();

    /**
     * {@return a new direct buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     */
    ByteBuf directBuffer(int initialCapacity);

    /**
     * {@return a new direct buffer} The caller owns it and must release it.
     *
     * @param initialCapacity the capacity to start with
     * @param maxCapacity the capacity it may grow to
     */
    ByteBuf directBuffer(int initialCapacity, int maxCapacity);

    /**
     * {@return an empty composite of the preferred kind, consolidating beyond the default component limit} The
     * caller owns it and must release it.
     */
    CompositeByteBuf compositeBuffer();

    /**
     * {@return an empty composite of the preferred kind} The caller owns it and must release it.
     *
     * @param maxNumComponents the component count beyond which it consolidates
     */
    CompositeByteBuf compositeBuffer(int maxNumComponents);

    /** {@return an empty heap composite} The caller owns it and must release it. */
    CompositeByteBuf compositeHeapBuffer();

    /**
     * {@return an empty heap composite} The caller owns it and must release it.
     *
     * @param maxNumComponents the component count beyond which it consolidates
     */
    CompositeByteBuf compositeHeapBuffer(int maxNumComponents);

    /** {@return an empty direct composite} The caller owns it and must release it. */
    CompositeByteBuf compositeDirectBuffer();

    /**
     * {@return an empty direct composite} The caller owns it and must release it.
     *
     * @param maxNumComponents the component count beyond which it consolidates
     */
    CompositeByteBuf compositeDirectBuffer(int maxNumComponents);

    /** {@return true if direct buffers from this allocator come from a pool} */
    boolean isDirectBufferPooled();

    /**
     * The capacity a buffer grows to when it needs {@code minNewCapacity}: doubling from 64 up
     * to 4 MiB, then steps of 4 MiB (doubling a huge buffer would waste too much), never above
     * {@code maxCapacity}.
     *
     * @param minNewCapacity the capacity the buffer needs
     * @param maxCapacity the buffer's maximum capacity
     * @return the new capacity
     */
    int calculateNewCapacity(int minNewCapacity, int maxCapacity);
}
