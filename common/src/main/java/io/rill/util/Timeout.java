package io.rill.util;

/** A handle to a {@link TimerTask} scheduled on a {@link Timer}. */
public interface Timeout {

    Timer timer();

    TimerTask task();

    /** True once the task was started (or is about to start); cancelling then fails. */
    boolean isExpired();

    boolean isCancelled();

    /**
     * Prevents the task from running. Returns false if it already expired or was cancelled.
     * Cheap and callable from any thread; the timer forgets the timeout on its next tick.
     */
    boolean cancel();
}
