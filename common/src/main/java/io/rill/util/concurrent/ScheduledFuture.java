package io.rill.util.concurrent;

/**
 * The future of a task scheduled on an {@link EventExecutor}.
 *
 * @param <V> the result type
 */
public interface ScheduledFuture<V> extends Future<V>, java.util.concurrent.ScheduledFuture<V> {
}
