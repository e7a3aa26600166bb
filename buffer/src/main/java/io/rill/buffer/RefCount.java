package io.rill.buffer;

import java.lang.invoke.VarHandle;

/**
 * The reference-count algorithm, for the three places that hold a count: {@link MemoryRegion}
 * (buffers that own memory), {@link AbstractDerivedByteBuf} (retained views) and
 * {@link CompositeByteBuf}. Each declares its own {@code int} field and passes it as a
 * {@link VarHandle}: the count stays a field of the object that owns it, never a separate object
 * one more load away, and the handles are constants at every call site, so once inlined these
 * compile as if written against the field.
 *
 * <p>The count is stored doubled: a live buffer with n owners holds {@code 2n}, a released one
 * holds an odd value. Retain is a single optimistic {@code getAndAdd}; if it lands on an odd
 * value (released meanwhile) or overflows, it is rolled back and throws. Release uses a CAS so
 * that reaching zero and marking the buffer released is one step no retain can slip into.
 * Access checks read the field plainly: a stale read can only miss a concurrent release,
 * which is a race in the caller anyway, and a plain read lets the JIT hoist it out of loops.
 */
final class RefCount {

    /** The raw value of a fresh count: one owner. */
    static final int ONE_OWNER = 2;

    private RefCount() {
    }

    /** {@return the number of owners a raw value stands for: 0 once released} */
    static int owners(int raw) {
        return (raw & 1) != 0 ? 0 : raw >>> 1;
    }

    static int owners(VarHandle count, Object holder) {
        return owners((int) count.getAcquire(holder));
    }

    static void retain(VarHandle count, Object holder, int increment) {
        int delta = increment << 1;
        int old = (int) count.getAndAdd(holder, delta);
        if ((old & 1) != 0 || old > Integer.MAX_VALUE - delta || delta < 0) {
            count.getAndAdd(holder, -delta);
            throw new IllegalReferenceCountException(owners(old), increment);
        }
    }

    /** {@return true if this release took the count to zero: the caller then frees, once} */
    static boolean release(VarHandle count, Object holder, int decrement) {
        long delta = (long) decrement << 1;
        for (;;) {
            int raw = (int) count.getVolatile(holder);
            if ((raw & 1) != 0 || raw < delta) {
                throw new IllegalReferenceCountException(owners(raw), -decrement);
            }
            int next = (int) (raw - delta);
            if (count.compareAndSet(holder, raw, next == 0 ? 1 : next)) {
                return next == 0;
            }
        }
    }

    static void checkIncrement(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
    }

    static void checkDecrement(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
    }
}
