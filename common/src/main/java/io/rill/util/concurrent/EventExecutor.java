package io.rill.util.concurrent;

/**
 * An {@link EventExecutorGroup} of exactly one thread of execution. Work submitted to it runs in
 * submission order on that thread; {@link #inEventLoop()} tells whether the caller is that thread.
 */
public interface EventExecutor extends EventExecutorGroup {

    /** This executor itself. */
    @Override
    default EventExecutor next() {
        return this;
    }

    /** The group this executor belongs to, or null when it stands alone. */
    EventExecutorGroup parent();

    /** True if the calling thread is this executor's thread. */
    default boolean inEventLoop() {
        return inEventLoop(Thread.currentThread());
    }

    /** True if {@code thread} is this executor's thread. */
    boolean inEventLoop(Thread thread);

    /** A new incomplete promise notified on this executor. */
    default <V> Promise<V> newPromise() {
        return new DefaultPromise<>(this);
    }

    /** A future that has already succeeded with {@code result}. */
    default <V> Future<V> newSucceededFuture(V result) {
        return new DefaultPromise<V>(this).setSuccess(result);
    }

    /** A future that has already failed with {@code cause}. */
    default <V> Future<V> newFailedFuture(Throwable cause) {
        return new DefaultPromise<V>(this).setFailure(cause);
    }
}
