package io.rill.buffer;

/**
 * An object whose memory is returned explicitly rather than by the garbage collector. It
 * starts with a count of 1; {@link #retain()} adds an owner, {@link #release()} drops one,
 * and when the count reaches 0 the object frees its resources and must not be used again.
 * Using it afterwards, or releasing it more often than it was retained, throws
 * {@link IllegalReferenceCountException}.
 */
public interface ReferenceCounted {

    /** {@return the current count; 0 means released} */
    int refCnt();

    /**
     * Adds one owner. Thread-safe.
     *
     * @return this object
     * @throws IllegalReferenceCountException if the object was already released
     */
    ReferenceCounted retain();

    /**
     * Adds {@code increment} owners. Thread-safe.
     *
     * @param increment the number of owners to add, above 0
     * @return this object
     * @throws IllegalReferenceCountException if the object was already released or the count would overflow
     */
    ReferenceCounted retain(int increment);

    /**
     * Records the caller as the last point that touched this object, for leak reports. Does
     * nothing unless leak detection is at ADVANCED or PARANOID level.
     *
     * @return this object
     */
    ReferenceCounted touch();

    /**
     * Like {@link #touch()} with a hint that appears in the leak report.
     *
     * @param hint an object describing the access, shown in the report
     * @return this object
     */
    ReferenceCounted touch(Object hint);

    /**
     * Drops one owner; the last release frees the object. Thread-safe.
     *
     * @return true if the count reached 0 and the object was freed
     * @throws IllegalReferenceCountException if the object was already released
     */
    boolean release();

    /**
     * Drops {@code decrement} owners. Thread-safe.
     *
     * @param decrement the number of owners to drop, above 0
     * @return true if the count reached 0 and the object was freed
     * @throws IllegalReferenceCountException if the count is lower than {@code decrement}
     */
    boolean release(int decrement);
}
