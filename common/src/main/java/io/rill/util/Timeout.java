package io.rill.util;

/** A handle to a {@link TimerTask} scheduled on a {@link Timer}. */
public interface Timeout {

    /** {@return the timer that created this timeout} */
    Timer timer();

    /** {@return the task that runs when this timeout expires} */
    TimerTask task();

    /** {@return true once the task was started (or is about to start)} Cancelling then fails. */
    boolean isExpired();

    /** {@return true once {@link #cancel()} succeeded} */
    boolean isCancelled();

    /**
     * Prevents the task from running. Returns false if it already expired or was cancelled.
     * Cheap and callable from any thread; the timer forgets the timeout on its next tick.
     *
     * @return true if this call prevented the task from running
     */
    boolean cancel();
}
