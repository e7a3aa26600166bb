package io.rill.buffer;

import io.rill.buffer.pool.PoolArena;
import io.rill.buffer.pool.PoolChunk;
import io.rill.buffer.pool.PoolThreadCache;
import io.rill.buffer.pool.PooledMemory;

/**
 * A buffer that owns memory, as a handle: its indexes and a reference to the {@link MemoryRegion}
 * that says where the bytes are and holds the count and the maximum capacity. One class per
 * backing extends this; pooled and unpooled buffers differ only in their region.
 *
 * <p>Every read of a socket creates one of these, so its size is the garbage a read costs (see
 * "no garbage on the hot path" in docs/architecture.md): with compressed references it is 24 bytes
 * (header, two indexes, one reference), and the region, which would double that, is recycled
 * through the thread cache.
 * Handles are never recycled. The final release points {@link #region} at
 * {@link MemoryRegion#RELEASED} before the region can be reused, so a stale handle fails in the
 * bounds check it already makes (limit -1) and can never reach the memory's next owner.
 *
 * <p>Accessors load the region once ({@code region.memory}, {@code region.offset}): one dependent
 * load more than when the fields were the buffer's own.
 *
 * @param <T> {@code byte[]} or a direct {@link java.nio.ByteBuffer}
 */
abstract class AbstractMemoryByteBuf<T> extends AbstractByteBuf implements PooledMemory<T> {

    /** Where the bytes, count and maximum capacity live; {@link MemoryRegion#RELEASED} once released. */
    MemoryRegion<T> region;

    AbstractMemoryByteBuf(MemoryRegion<T> region) {
        this.region = region;
    }

    /** Lets the pool fill in this buffer's region (tests allocate through the arena this way). */
    @Override
    public final void init(PoolArena<T> arena, PoolChunk<T> chunk, long handle, T memory, int offset,
                           int length, int sizeIdx, PoolThreadCache cache) {
        region.init(arena, chunk, handle, memory, offset, length, sizeIdx, cache);
    }

    /** Fresh memory for an unpooled buffer. */
    abstract T newMemory(int capacity);

    /** Copies between two memories of this kind. */
    abstract void copyMemory(T src, int srcOffset, T dst, int dstOffset, int length);

    @Override
    public final ByteBufAllocator alloc() {
        return region.alloc();
    }

    @Override
    public final ByteBuf unwrap() {
        return null;
    }

    @Override
    public final int capacity() {
        return Math.max(region.limit, 0);
    }

    @Override
    public final int maxCapacity() {
        return region.maxCapacity;
    }

    @Override
    final int accessLimit() {
        return region.limit;
    }

    @Override
    final boolean isReleased() {
        return region == MemoryRegion.RELEASED;
    }

    @Override
    public final ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        MemoryRegion<T> r = region;
        int oldCapacity = r.limit;
        if (newCapacity == oldCapacity) {
            return this;
        }
        // The region is private to this live handle, so it changes in place either way.
        if (r.fitsInPlace(newCapacity)) {
            r.limit = newCapacity;
        } else {
            r.reallocate(this, newCapacity, Math.min(oldCapacity, newCapacity));
        }
        trimIndexesTo(newCapacity);
        return this;
    }

    // ------------------------------------------------------------------ reference counting

    @Override
    public int refCnt() {
        return region.refCnt();
    }

    @Override
    public ByteBuf retain() {
        region.retain(1);
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        RefCount.checkIncrement(increment);
        region.retain(increment);
        return this;
    }

    @Override
    public boolean release() {
        return release0(1);
    }

    @Override
    public boolean release(int decrement) {
        RefCount.checkDecrement(decrement);
        return release0(decrement);
    }

    @SuppressWarnings("unchecked")
    private boolean release0(int decrement) {
        MemoryRegion<T> r = region;
        if (!r.release(decrement)) {
            return false;
        }
        // Detach first: once the region is in the stash, this handle must no longer reach it.
        region = (MemoryRegion<T>) MemoryRegion.RELEASED;
        r.free();
        return true;
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
