package io.rill.buffer;

import io.rill.buffer.pool.PoolArena;
import io.rill.buffer.pool.PoolChunk;
import io.rill.buffer.pool.PoolThreadCache;
import io.rill.buffer.pool.PooledMemory;

/**
 * A buffer that owns memory: {@code length} bytes at {@code offset} of {@code memory}. The
 * memory is either its own (unpooled: {@code arena == null}) or a region of a pool chunk, in
 * which case the region's size class ({@code sizeIdx}) may be larger than {@code length} and
 * the buffer can grow into it without copying. One class per backing extends this; pooled and
 * unpooled buffers differ only in these fields.
 *
 * @param <T> {@code byte[]} or a direct {@link java.nio.ByteBuffer}
 */
abstract class AbstractMemoryByteBuf<T> extends AbstractByteBuf implements PooledMemory<T> {

    /** Creator, asked for growth sizes. */
    private final ByteBufAllocator alloc;
    /** Backing memory; bytes [offset, offset + length) belong to this buffer. */
    T memory;
    /** Start of this buffer in {@code memory}. */
    int offset;
    /** The capacity. */
    int length;
    /**
     * What the accessors check indexes against: {@code length} while live, -1 once released. The
     * bounds check then also catches use after release, and no accessor reads the count.
     */
    private int limit;
    /** Pool arena the region came from, or null when the memory is unpooled. */
    private PoolArena<T> arena;
    /** Chunk of the region, or null if unpooled or huge. */
    private PoolChunk<T> chunk;
    /** The chunk's handle for the region. */
    private long handle;
    /** Size class of the region, or -1. */
    private int sizeIdx = -1;
    /** Thread cache the region came through, or null; only a hint for where to free it. */
    private PoolThreadCache cache;

    AbstractMemoryByteBuf(ByteBufAllocator alloc, int maxCapacity) {
        super(maxCapacity);
        this.alloc = alloc;
    }

    /** Unpooled initialisation. */
    final void initUnpooled(T memory, int capacity) {
        this.memory = memory;
        this.offset = 0;
        this.length = capacity;
        this.limit = capacity;
    }

    @Override
    public final void init(PoolArena<T> arena, PoolChunk<T> chunk, long handle, T memory, int offset,
                           int length, int sizeIdx, PoolThreadCache cache) {
        this.arena = arena;
        this.chunk = chunk;
        this.handle = handle;
        this.memory = memory;
        this.offset = offset;
        this.length = length;
        this.limit = length;
        this.sizeIdx = sizeIdx;
        this.cache = cache;
    }

    /** Fresh memory for an unpooled buffer. */
    abstract T newMemory(int capacity);

    /** Copies between two memories of this kind. */
    abstract void copyMemory(T src, int srcOffset, T dst, int dstOffset, int length);

    @Override
    public final ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public final ByteBuf unwrap() {
        return null;
    }

    @Override
    public final int capacity() {
        return length;
    }

    @Override
    final int accessLimit() {
        return limit;
    }

    @Override
    public final ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        if (newCapacity == length) {
            return this;
        }
        if (chunk != null) {
            int regionSize = arena.sizes().size(sizeIdx);
            // Stay in the region when it fits and we would not waste more than half of it.
            if (newCapacity <= regionSize && newCapacity > regionSize >>> 1) {
                length = newCapacity;
                limit = newCapacity;
                trimIndexesTo(newCapacity);
                return this;
            }
        }
        T oldMemory = memory;
        int oldOffset = offset;
        int keep = Math.min(length, newCapacity);
        PoolArena<T> oldArena = arena;
        PoolChunk<T> oldChunk = chunk;
        long oldHandle = handle;
        int oldSizeIdx = sizeIdx;
        PoolThreadCache oldCache = cache;
        if (oldArena != null) {
            oldArena.allocate(oldArena.currentCache(), newCapacity, this);
        } else {
            initUnpooled(newMemory(newCapacity), newCapacity);
        }
        copyMemory(oldMemory, oldOffset, memory, offset, keep);
        if (oldArena != null) {
            oldArena.free(oldChunk, oldHandle, oldSizeIdx, oldMemory, oldCache);
        }
        trimIndexesTo(newCapacity);
        return this;
    }

    @Override
    final void deallocate() {
        limit = -1;
        PoolArena<T> a = arena;
        if (a != null) {
            a.free(chunk, handle, sizeIdx, memory, cache);
        }
        arena = null;
        chunk = null;
        cache = null;
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
