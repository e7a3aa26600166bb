package io.rill.buffer;

import io.rill.buffer.pool.PoolArena;
import io.rill.buffer.pool.PoolChunk;
import io.rill.buffer.pool.PoolThreadCache;
import io.rill.buffer.pool.PooledMemory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Everything about one allocation except the indexes: where its bytes live, how to free them,
 * its maximum capacity and its reference count. The {@link AbstractMemoryByteBuf} a user holds is
 * only a handle (indexes and a reference to its region), so that the part made per socket read is
 * small (24 bytes) and this part can be recycled.
 *
 * <p>Life cycle. A region belongs to exactly one live handle. When the count reaches zero, the
 * handle first swaps its reference to {@link #RELEASED} and only then calls {@link #free()},
 * which returns the memory to the pool and, on the thread whose cache served the allocation, the
 * region object to that cache's stash for the next allocation. Handles are never reused: a stale
 * handle (or a view of it) keeps pointing at {@code RELEASED}, whose limit of -1 makes the one
 * bounds check every accessor already does fail with {@link IllegalReferenceCountException}, so
 * a recycled region is never reachable through an old reference. A region freed on another
 * thread is left to the GC: the stash is confined to its thread.
 *
 * <p>The count follows {@link RefCount} (doubled, optimistic retain, CAS release). A
 * retain that races with the final release through the same handle is a bug in the caller (it
 * retained what it did not own) and, as in any pool that recycles, may then count on the
 * region's next owner; every other stale use fails through {@code RELEASED}.
 *
 * @param <T> {@code byte[]} or a direct {@link java.nio.ByteBuffer}; erased, so a recycled region
 *            serves either kind
 */
final class MemoryRegion<T> implements PooledMemory<T> {

    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(MemoryRegion.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Where the size class sits in {@link #handle}; a chunk's element index never reaches 2^24. */
    private static final int SIZE_IDX_SHIFT = 24;
    private static final long SIZE_IDX_MASK = 0xffL << SIZE_IDX_SHIFT;

    /**
     * What every released handle points at: no memory, limit -1, an odd count. Shared by all
     * buffers of both kinds; nothing ever writes to it except the rolled-back add of a stale retain.
     * Its allocator is the unpooled one, so {@code alloc()} of a released buffer still answers.
     */
    static final MemoryRegion<?> RELEASED = new MemoryRegion<>(UnpooledByteBufAllocator.DEFAULT, 0);

    static {
        RELEASED.limit = -1;
        RELEASED.refCnt = 1;
    }

    /** Backing memory; bytes [offset, offset + limit) belong to the buffer. Null once freed. */
    T memory;
    /** Start of the buffer in {@code memory}. */
    int offset;
    /** The capacity while live, -1 once freed: accessors check indexes against it. */
    int limit;
    /** capacity <= maxCapacity, fixed while the region serves one buffer. */
    int maxCapacity;
    /** Twice the number of owners while live; odd once released. Atomic updates via REF_CNT only. */
    private int refCnt;
    /** Chunk of the memory (a huge allocation has a chunk of its own), or null when unpooled. */
    private PoolChunk<T> chunk;
    /** Pooled: the chunk's handle for the memory, with the size class (a byte, -1 for huge) in bits 24-31. */
    private long handle;
    /**
     * Unpooled: the {@link ByteBufAllocator}. Pooled: the thread cache the memory came through, or
     * null; where to free it without a lookup, and whose stash may take this object back.
     */
    private Object owner;

    /** A region for a buffer of {@code alloc} whose memory comes later ({@link #init} or {@link #initUnpooled}). */
    MemoryRegion(ByteBufAllocator alloc, int maxCapacity) {
        reset(alloc, maxCapacity);
    }

    /** A fresh or recycled region for a pooled allocation of {@code cache}'s thread. */
    @SuppressWarnings("unchecked")
    static <T> MemoryRegion<T> obtain(PoolThreadCache cache, ByteBufAllocator alloc, int maxCapacity) {
        MemoryRegion<T> region = (MemoryRegion<T>) cache.pollRecycled();
        if (region == null) {
            return new MemoryRegion<>(alloc, maxCapacity);
        }
        region.reset(alloc, maxCapacity);
        return region;
    }

    /** Makes this a live region with one owner. Only before the handle holding it is published. */
    private void reset(ByteBufAllocator alloc, int maxCapacity) {
        if (maxCapacity < 0) {
            throw new IllegalArgumentException("maxCapacity: " + maxCapacity + " (expected: >= 0)");
        }
        this.maxCapacity = maxCapacity;
        this.owner = alloc;
        REF_CNT.set(this, RefCount.ONE_OWNER);
    }

    /** Unpooled initialisation (also after growing an unpooled buffer). */
    void initUnpooled(T memory, int capacity) {
        this.memory = memory;
        this.offset = 0;
        this.limit = capacity;
    }

    @Override
    public void init(PoolArena<T> arena, PoolChunk<T> chunk, long handle, T memory, int offset,
                     int length, int sizeIdx, PoolThreadCache cache) {
        assert chunk.arena() == arena && (handle & SIZE_IDX_MASK) == 0;
        this.chunk = chunk;
        this.handle = handle | (long) (sizeIdx & 0xff) << SIZE_IDX_SHIFT;
        this.memory = memory;
        this.offset = offset;
        this.limit = length;
        this.owner = cache;
    }

    boolean isPooled() {
        return chunk != null;
    }

    ByteBufAllocator alloc() {
        PoolChunk<T> c = chunk;
        return (ByteBufAllocator) (c == null ? owner : c.arena().owner());
    }

    /**
     * True if the buffer can take {@code newCapacity} without moving: its pooled size class holds
     * it and would not be more than half empty.
     */
    boolean fitsInPlace(int newCapacity) {
        PoolChunk<T> c = chunk;
        int sizeIdx = (byte) (handle >>> SIZE_IDX_SHIFT);
        if (c == null || sizeIdx < 0) {
            return false;
        }
        int regionSize = c.arena().sizes().size(sizeIdx);
        return newCapacity <= regionSize && newCapacity > regionSize >>> 1;
    }

    /**
     * Moves the buffer to fresh memory of {@code newCapacity} bytes, keeping its first
     * {@code keep} bytes, and frees the old memory. The region object stays the same, so the
     * handle needs no update.
     */
    void reallocate(AbstractMemoryByteBuf<T> buf, int newCapacity, int keep) {
        T oldMemory = memory;
        int oldOffset = offset;
        PoolChunk<T> oldChunk = chunk;
        long oldHandle = handle;
        PoolThreadCache oldCache = oldChunk != null ? (PoolThreadCache) owner : null;
        if (oldChunk != null) {
            PoolArena<T> arena = oldChunk.arena();
            arena.allocate(arena.currentCache(), newCapacity, this);
        } else {
            initUnpooled(buf.newMemory(newCapacity), newCapacity);
        }
        buf.copyMemory(oldMemory, oldOffset, memory, offset, keep);
        if (oldChunk != null) {
            oldChunk.arena().free(oldChunk, oldHandle & ~SIZE_IDX_MASK, (byte) (oldHandle >>> SIZE_IDX_SHIFT),
                    oldMemory, oldCache);
        }
    }

    /**
     * Gives the memory back, after the handle stopped pointing here. On the thread whose cache
     * served the allocation the object then goes to that cache's stash; elsewhere it is dropped.
     */
    void free() {
        limit = -1;
        PoolChunk<T> c = chunk;
        if (c == null) {
            memory = null;
            return;
        }
        PoolThreadCache cache = (PoolThreadCache) owner;
        c.arena().free(c, handle & ~SIZE_IDX_MASK, (byte) (handle >>> SIZE_IDX_SHIFT), memory, cache);
        memory = null;
        chunk = null;
        owner = null;
        if (cache != null && cache.isOwnedByCurrentThread()) {
            cache.offerRecycled(this);
        }
    }

    // ------------------------------------------------------------------ reference counting

    int refCnt() {
        return RefCount.owners(REF_CNT, this);
    }

    void retain(int increment) {
        RefCount.retain(REF_CNT, this, increment);
    }

    /** {@return true if this release took the count to zero: the caller then frees} */
    boolean release(int decrement) {
        return RefCount.release(REF_CNT, this, decrement);
    }
}
