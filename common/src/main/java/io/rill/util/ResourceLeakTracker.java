package io.rill.util;

/**
 * Follows one tracked resource from allocation to release. Obtained from
 * {@link ResourceLeakDetector#track(Object)}; the owner calls {@link #close(Object)} exactly
 * when the resource is released, and {@link #record(Object)} at interesting points so a leak
 * report can show where the resource went.
 *
 * @param <T> the type of the tracked object
 */
public interface ResourceLeakTracker<T> {

    /** Records the caller's stack as an access point (kept only at ADVANCED and PARANOID). */
    void record();

    /**
     * Like {@link #record()}, with a hint shown in the leak report.
     *
     * @param hint an object whose {@code toString} (or {@link ResourceLeakHint}) describes the access
     */
    void record(Object hint);

    /**
     * Marks the resource released. Returns false if it was already closed or {@code trackedObject}
     * is not the object this tracker follows.
     *
     * @param trackedObject the object being released
     * @return true if this call closed the tracker
     */
    boolean close(T trackedObject);
}
