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

    /** {@return the group this executor belongs to, or null when it stands alone} */
    EventExecutorGroup parent();

    /** {@return true if the calling thread is this executor's thread} Callable from any thread. */
    default boolean inEventLoop() {
        return inEventLoop(Thread.currentThread());
    }

    /**
     * {@return true if {@code thread} is this executor's thread}
     *
     * @param thread the thread to test
     */
    boolean inEventLoop(Thread thread);

    /**
     * {@return a new incomplete promise whose listeners are notified on this executor}
     *
     * @param <V> the result type
     */
    default <V> Promise<V> newPromise() {
        return new DefaultPromise<>(this);
    }

    /**
     * {@return a future that has already succeeded with {@code result}}
     *
     * @param <V> the result type
     * @param result the result, may be null
     */
    default <V> Future<V> newSucceededFuture(V result) {
        return new DefaultPromise<V>(this).setSuccess(result);
    }

    /**
     * {@return a future that has already failed with {@code cause}}
     *
     * @param <V> the result type
     * @param cause the failure
     */
    default <V> Future<V> newFailedFuture(Throwable cause) {
        return new DefaultPromise<V>(this).setFailure(cause);
    }
}
