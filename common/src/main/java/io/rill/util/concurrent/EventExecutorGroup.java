package io.rill.util.concurrent;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A set of {@link EventExecutor}s, handed out by {@link #next()}, with a life cycle shared by all.
 * Iterating yields every executor of the group.
 */
public interface EventExecutorGroup extends ScheduledExecutorService, Iterable<EventExecutor> {

    /** Default quiet period of {@link #shutdownGracefully()}: tasks arriving within it are still run. */
    long DEFAULT_SHUTDOWN_QUIET_PERIOD_SECONDS = 2;

    /** Default bound on the whole graceful shutdown. */
    long DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 15;

    /** {@return one of the group's executors, chosen round-robin} */
    EventExecutor next();

    /** {@return true once {@link #shutdownGracefully} was called or the group terminated} */
    boolean isShuttingDown();

    /**
     * Shuts down with the default quiet period (2 s) and timeout (15 s).
     *
     * @return {@link #terminationFuture()}
     */
    default Future<?> shutdownGracefully() {
        return shutdownGracefully(DEFAULT_SHUTDOWN_QUIET_PERIOD_SECONDS, DEFAULT_SHUTDOWN_TIMEOUT_SECONDS,
                TimeUnit.SECONDS);
    }

    /**
     * Starts an orderly shutdown: tasks keep being accepted and run until no task has arrived for
     * {@code quietPeriod}, or {@code timeout} has passed since this call; then the executors stop
     * and later tasks are rejected with {@link java.util.concurrent.RejectedExecutionException}.
     *
     * @return {@link #terminationFuture()}
     * @param quietPeriod how long no task may arrive before the executors stop
     * @param timeout the longest the shutdown may take, whatever keeps arriving
     * @param unit the unit of both durations
     */
    Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit);

    /** {@return a future that completes once every executor of the group has terminated} */
    Future<?> terminationFuture();

    @Override
    Future<?> submit(Runnable task);

    @Override
    <T> Future<T> submit(Runnable task, T result);

    @Override
    <T> Future<T> submit(Callable<T> task);

    @Override
    ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit);

    @Override
    <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit);

    @Override
    ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit);

    @Override
    ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit);

    /**
     * Same as {@code shutdownGracefully(0, 0, unit)}, for {@code ExecutorService} users.
     *
     * @deprecated use {@link #shutdownGracefully(long, long, TimeUnit)}, which lets queued work finish
     */
    @Override
    @Deprecated
    void shutdown();

    /**
     * Shuts down at once; returns no tasks, since tasks in flight are still run by the loop
     * before it terminates.
     *
     * @deprecated use {@link #shutdownGracefully(long, long, TimeUnit)}
     */
    @Override
    @Deprecated
    default List<Runnable> shutdownNow() {
        shutdown();
        return List.of();
    }
}
