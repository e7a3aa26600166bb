package io.rill.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A buffer that carries its own reference count and maximum capacity: views with a count of
 * their own, and composites. (Memory buffers keep both in their recyclable
 * {@link MemoryRegion} instead, to stay small.)
 *
 * <p>The count follows {@link RefCount}: doubled, optimistic retain, CAS release.
 */
abstract class CountedByteBuf extends AbstractByteBuf {

    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(CountedByteBuf.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Twice the number of owners while live; odd once released. Atomic updates via REF_CNT only. */
    private int refCnt = RefCount.ONE_OWNER;
    /** capacity() <= maxCapacity, fixed for life (slices fix it to their length). */
    private final int maxCapacity;

    CountedByteBuf(int maxCapacity) {
        if (maxCapacity < 0) {
            throw new IllegalArgumentException("maxCapacity: " + maxCapacity + " (expected: >= 0)");
        }
        this.maxCapacity = maxCapacity;
    }

    /** Frees what the buffer holds; called exactly once, when the count reaches zero. */
    abstract void deallocate();

    @Override
    public int maxCapacity() {
        return maxCapacity;
    }

    @Override
    public int refCnt() {
        return RefCount.owners(REF_CNT, this);
    }

    /** True once released; a plain read (see {@link RefCount}). */
    @Override
    boolean isReleased() {
        return (refCnt & 1) != 0;
    }

    @Override
    public ByteBuf retain() {
        RefCount.retain(REF_CNT, this, 1);
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        RefCount.checkIncrement(increment);
        RefCount.retain(REF_CNT, this, increment);
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

    private boolean release0(int decrement) {
        if (RefCount.release(REF_CNT, this, decrement)) {
            deallocate();
            return true;
        }
        return false;
    }
}
