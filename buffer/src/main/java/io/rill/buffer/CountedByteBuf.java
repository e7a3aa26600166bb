package io.rill.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A buffer that carries its own reference count and maximum capacity: views with a count of
 * their own, and composites. (Memory buffers keep both in their recyclable
 * {@link MemoryRegion} instead, to stay small.)
 *
 * <p>The count is stored doubled: a live buffer with n owners holds {@code 2n}, a released one
 * holds an odd value. Retain is a single optimistic {@code getAndAdd}; if it lands on an odd
 * value (released meanwhile) or overflows, it is rolled back and throws. Release uses a CAS so
 * that reaching zero and marking the buffer released is one step no retain can slip into.
 * Access checks read the field plainly: a stale read can only miss a concurrent release,
 * which is a race in the caller anyway, and a plain read lets the JIT hoist it out of loops.
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
    private int refCnt = 2;
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
        int raw = (int) REF_CNT.getAcquire(this);
        return (raw & 1) != 0 ? 0 : raw >>> 1;
    }

    /** True once released; a plain read (see the class comment). */
    @Override
    boolean isReleased() {
        return (refCnt & 1) != 0;
    }

    @Override
    public ByteBuf retain() {
        return retain0(1);
    }

    @Override
    public ByteBuf retain(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
        return retain0(increment);
    }

    private ByteBuf retain0(int increment) {
        int delta = increment << 1;
        int old = (int) REF_CNT.getAndAdd(this, delta);
        if ((old & 1) != 0 || old > Integer.MAX_VALUE - delta || delta < 0) {
            REF_CNT.getAndAdd(this, -delta);
            throw new IllegalReferenceCountException((old & 1) != 0 ? 0 : old >>> 1, increment);
        }
        return this;
    }

    @Override
    public boolean release() {
        return release0(1);
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        return release0(decrement);
    }

    private boolean release0(int decrement) {
        long delta = (long) decrement << 1;
        for (;;) {
            int raw = (int) REF_CNT.getVolatile(this);
            if ((raw & 1) != 0 || raw < delta) {
                throw new IllegalReferenceCountException((raw & 1) != 0 ? 0 : raw >>> 1, -decrement);
            }
            int next = (int) (raw - delta);
            if (REF_CNT.compareAndSet(this, raw, next == 0 ? 1 : next)) {
                if (next == 0) {
                    deallocate();
                    return true;
                }
                return false;
            }
        }
    }
}
