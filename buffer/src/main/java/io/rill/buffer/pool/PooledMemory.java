package io.rill.buffer.pool;

/**
 * Receives the result of {@link PoolArena#allocate}: where the bytes live. Implemented by the
 * buffers so that an allocation creates no result object.
 *
 * @param <T> the memory type: {@code byte[]} or a direct {@link java.nio.ByteBuffer}
 */
public interface PooledMemory<T> {

    /**
     * Takes over one allocation: remembers where it lives so that it can be freed later.
     *
     * @param arena   the arena to free to
     * @param chunk   the chunk holding the bytes, or null for a huge (unpooled) allocation
     * @param handle  the chunk's handle for the allocation (0 when {@code chunk} is null)
     * @param memory  the chunk's memory (or the huge allocation's own)
     * @param offset  where the allocation starts in {@code memory}
     * @param length  the requested size
     * @param sizeIdx the size class, whose size bounds in-place growth; -1 for huge
     * @param cache   the thread cache the allocation went through (may be null): the one to free
     *                into, without a thread-local lookup, when the same thread releases it
     */
    void init(PoolArena<T> arena, PoolChunk<T> chunk, long handle, T memory, int offset, int length, int sizeIdx,
              PoolThreadCache cache);
}
