package io.rill.buffer;

/**
 * An object whose memory is returned explicitly rather than by the garbage collector. It
 * starts with a count of 1; {@link #retain()} adds an owner, {@link #release()} drops one,
 * and when the count reaches 0 the object frees its resources and must not be used again.
 * Using it afterwards, or releasing it more often than it was retained, throws
 * {@link IllegalReferenceCountException}.
 */
public interface ReferenceCounted {

    /** The current count; 0 means released. */
    int refCnt();

    /** Adds one owner. */
    ReferenceCounted retain();

    /** Adds {@code increment} owners ({@code increment > 0}). */
    ReferenceCounted retain(int increment);

    /**
     * Records the caller as the last point that touched this object, for leak reports. Does
     * nothing unless leak detection is at ADVANCED or PARANOID level.
     */
    ReferenceCounted touch();

    /** Like {@link #touch()} with a hint that appears in the leak report. */
    ReferenceCounted touch(Object hint);

    /** Drops one owner; returns true if the count reached 0 and the object was freed. */
    boolean release();

    /** Drops {@code decrement} owners; returns true if the count reached 0. */
    boolean release(int decrement);
}
