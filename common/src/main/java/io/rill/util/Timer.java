package io.rill.util;

import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link TimerTask}s once after a delay, on a thread of its own. Meant for many coarse,
 * mostly cancelled timeouts (idle and connect timeouts), not for precise scheduling: a task
 * may run somewhat late, never early.
 */
public interface Timer {

    /**
     * Schedules {@code task} to run once after {@code delay} (zero or negative: as soon as
     * possible).
     *
     * @throws IllegalStateException if the timer was stopped
     * @throws RejectedExecutionException if too many timeouts are pending
     * @param task the task to run on the timer's thread
     * @param delay how long to wait
     * @param unit the unit of {@code delay}
     * @return a handle that can cancel the task
     */
    Timeout newTimeout(TimerTask task, long delay, TimeUnit unit);

    /**
     * Stops the timer and its thread, cancelling nothing: the timeouts that had not run yet
     * are returned (not including cancelled ones) so the caller can decide what to do with them.
     * Calling it again returns an empty set.
     *
     * @throws IllegalStateException if called from a task of this timer
     * @return the timeouts that had not run
     */
    Set<Timeout> stop();
}
