package io.rill.buffer;

import io.rill.buffer.pool.PoolArena;
import io.rill.buffer.pool.PoolChunk;
import io.rill.buffer.pool.PoolThreadCache;
import io.rill.buffer.pool.PooledMemory;

/**
 * A buffer that owns memory: {@code capacity} bytes at {@code offset} of {@code memory}. The
 * memory is either its own (unpooled: {@code chunk == null}) or a region of a pool chunk, in
 * which case the region's size class may be larger than the capacity and the buffer can grow
 * into it without copying. One class per backing extends this; pooled and unpooled buffers differ
 * only in these fields.
 *
 * <p>Every read of a socket creates one of these, so its size is the garbage a read costs
 * (ARCHITECTURE rule 1). The fields are kept to 56 bytes with compressed references: the arena is
 * the chunk's, the size class rides in unused bits of the handle, and one field holds either the
 * allocator (unpooled) or the thread-cache hint (pooled), never both.
 *
 * @param <T> {@code byte[]} or a direct {@link java.nio.ByteBuffer}
 */
abstract class AbstractMemoryByteBuf<T> extends AbstractByteBuf implements PooledMemory<T> {

    /** Where the size class sits in {@link #handle}; a chunk's element index never reaches 2^24. */
    private static final int SIZE_IDX_SHIFT = 24;
    private static final long SIZE_IDX_MASK = 0xffL << SIZE_IDX_SHIFT;

    /** Backing memory; bytes [offset, offset + capacity) belong to this buffer. Null once released. */
    T memory;
    /** Start of this buffer in {@code memory}. */
    int offset;
    /**
     * The capacity while live, -1 once released. The accessors check indexes against it, so the
     * bounds check also catches use after release and no accessor reads the count.
     */
    private int limit;
    /** Chunk of the region (a huge allocation has a chunk of its own), or null when unpooled. */
    private PoolChunk<T> chunk;
    /** Pooled: the chunk's handle for the region, with the size class (a byte, -1 for huge) in bits 24-31. */
    private long handle;
    /**
     * Unpooled: the {@link ByteBufAllocator}. Pooled: the thread cache the region came through, or
     * null; only a hint for where to free it (the allocator is then the arena's owner).
     */
    private Object owner;

    AbstractMemoryByteBuf(ByteBufAllocator alloc, int maxCapacity) {
        super(maxCapacity);
        this.owner = alloc;
    }

    /** Unpooled initialisation. */
    final void initUnpooled(T memory, int capacity) {
        this.memory = memory;
        this.offset = 0;
        this.limit = capacity;
    }

    @Override
    public final void init(PoolArena<T> arena, PoolChunk<T> chunk, long handle, T memory, int offset,
                           int length, int sizeIdx, PoolThreadCache cache) {
        assert chunk.arena() == arena && (handle & SIZE_IDX_MASK) == 0;
        this.chunk = chunk;
        this.handle = handle | (long) (sizeIdx & 0xff) << SIZE_IDX_SHIFT;
        this.memory = memory;
        this.offset = offset;
        this.limit = length;
        this.owner = cache;
    }

    private long regionHandle() {
        return handle & ~SIZE_IDX_MASK;
    }

    private int sizeIdx() {
        return (byte) (handle >>> SIZE_IDX_SHIFT);
    }

    private PoolThreadCache cacheHint() {
        return (PoolThreadCache) owner;
    }

    /** Fresh memory for an unpooled buffer. */
    abstract T newMemory(int capacity);

    /** Copies between two memories of this kind. */
    abstract void copyMemory(T src, int srcOffset, T dst, int dstOffset, int length);

    @Override
    public final ByteBufAllocator alloc() {
        PoolChunk<T> c = chunk;
        return (ByteBufAllocator) (c == null ? owner : c.arena().owner());
    }

    @Override
    public final ByteBuf unwrap() {
        return null;
    }

    @Override
    public final int capacity() {
        return Math.max(limit, 0);
    }

    @Override
    final int accessLimit() {
        return limit;
    }

    @Override
    public final ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        if (newCapacity == limit) {
            return this;
        }
        PoolChunk<T> oldChunk = chunk;
        int oldSizeIdx = sizeIdx();
        if (oldChunk != null && oldSizeIdx >= 0) {
            int regionSize = oldChunk.arena().sizes().size(oldSizeIdx);
            // Stay in the region when it fits and we would not waste more than half of it.
            if (newCapacity <= regionSize && newCapacity > regionSize >>> 1) {
                limit = newCapacity;
                trimIndexesTo(newCapacity);
                return this;
            }
        }
        T oldMemory = memory;
        int oldOffset = offset;
        int keep = Math.min(limit, newCapacity);
        long oldHandle = regionHandle();
        PoolThreadCache oldCache = oldChunk != null ? cacheHint() : null;
        if (oldChunk != null) {
            PoolArena<T> arena = oldChunk.arena();
            arena.allocate(arena.currentCache(), newCapacity, this);
        } else {
            initUnpooled(newMemory(newCapacity), newCapacity);
        }
        copyMemory(oldMemory, oldOffset, memory, offset, keep);
        if (oldChunk != null) {
            oldChunk.arena().free(oldChunk, oldHandle, oldSizeIdx, oldMemory, oldCache);
        }
        trimIndexesTo(newCapacity);
        return this;
    }

    @Override
    final void deallocate() {
        limit = -1;
        PoolChunk<T> c = chunk;
        if (c != null) {
            c.arena().free(c, regionHandle(), sizeIdx(), memory, cacheHint());
            owner = null;
        }
        memory = null;
    }

    @Override
    public final int nioBufferCount() {
        return 1;
    }

    @Override
    public final java.nio.ByteBuffer[] nioBuffers(int index, int length) {
        return new java.nio.ByteBuffer[] {nioBuffer(index, length)};
    }
}
