package io.rill.util.concurrent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The result of an asynchronous operation, with listeners.
 *
 * <p>Listeners run on the future's {@link #executor()} in the order they were added; one added
 * after completion still runs. A blocking wait ({@link #await()}, {@link #sync()}, {@link #get()})
 * from the executor's own thread would wait forever for work that thread must do, so it throws
 * {@link BlockingOperationException} instead.
 *
 * @param <V> the result type
 */
public interface Future<V> extends java.util.concurrent.Future<V> {

    /** {@return true if the operation completed successfully} */
    boolean isSuccess();

    /** {@return true if {@link #cancel(boolean)} may still cancel this future} */
    boolean isCancellable();

    /**
     * {@return the failure cause if the operation failed (a {@code CancellationException} when cancelled), else
     * null}
     */
    Throwable cause();

    /**
     * Adds a listener, notified once this future completes (immediately if it already has).
     *
     * @param listener called once with this future, on {@link #executor()}
     * @return this future
     */
    Future<V> addListener(FutureListener<? super V> listener);

    /**
     * Removes the first registration of {@code listener}; a no-op when it is not registered.
     *
     * @param listener the listener to remove
     * @return this future
     */
    Future<V> removeListener(FutureListener<? super V> listener);

    /**
     * Waits for completion and rethrows the failure cause, if any, unchanged.
     *
     * @return this future
     * @throws InterruptedException if the waiting thread is interrupted
     */
    Future<V> sync() throws InterruptedException;

    /**
     * Like {@link #sync()}, but keeps waiting when interrupted (restoring the interrupt flag).
     *
     * @return this future
     */
    Future<V> syncUninterruptibly();

    /**
     * Waits for completion.
     *
     * @return this future
     * @throws InterruptedException if the waiting thread is interrupted
     */
    Future<V> await() throws InterruptedException;

    /**
     * Waits for completion, keeping on when interrupted (restoring the interrupt flag).
     *
     * @return this future
     */
    Future<V> awaitUninterruptibly();

    /**
     * Waits at most the given time; returns true if the future completed.
     *
     * @param timeout the longest time to wait
     * @param unit the unit of {@code timeout}
     * @return true if the future completed in time
     * @throws InterruptedException if the waiting thread is interrupted
     */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Like {@link #await(long, TimeUnit)}, without being interruptible.
     *
     * @param timeout the longest time to wait
     * @param unit the unit of {@code timeout}
     * @return true if the future completed in time
     */
    boolean awaitUninterruptibly(long timeout, TimeUnit unit);

    /** {@return the result if completed successfully, else null} Never blocks. */
    V getNow();

    /** {@return the executor that notifies this future's listeners} */
    EventExecutor executor();

    /** {@return a {@link CompletionStage} view that completes with this future} */
    default CompletionStage<V> asStage() {
        return toCompletableFuture().minimalCompletionStage();
    }

    /**
     * A new {@link CompletableFuture} that completes when this future does. Cancelling the
     * returned future cancels this one.
     *
     * @return the new future
     */
    default CompletableFuture<V> toCompletableFuture() {
        CompletableFuture<V> cf = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                Future.this.cancel(mayInterruptIfRunning);
                return super.cancel(mayInterruptIfRunning);
            }
        };
        addListener(f -> {
            if (f.isSuccess()) {
                cf.complete(f.getNow());
            } else {
                cf.completeExceptionally(f.cause());
            }
        });
        return cf;
    }
}
