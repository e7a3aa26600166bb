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
 */
public interface Future<V> extends java.util.concurrent.Future<V> {

    /** True if the operation completed successfully. */
    boolean isSuccess();

    /** True if {@link #cancel(boolean)} may still cancel this future. */
    boolean isCancellable();

    /** The failure cause if the operation failed (a {@code CancellationException} when cancelled), else null. */
    Throwable cause();

    /** Adds a listener, notified once this future completes (immediately if it already has). */
    Future<V> addListener(FutureListener<? super V> listener);

    /** Removes the first registration of {@code listener}; a no-op when it is not registered. */
    Future<V> removeListener(FutureListener<? super V> listener);

    /** Waits for completion and rethrows the failure cause, if any, unchanged. */
    Future<V> sync() throws InterruptedException;

    /** Like {@link #sync()}, but keeps waiting when interrupted (restoring the interrupt flag). */
    Future<V> syncUninterruptibly();

    /** Waits for completion. */
    Future<V> await() throws InterruptedException;

    /** Waits for completion, keeping on when interrupted (restoring the interrupt flag). */
    Future<V> awaitUninterruptibly();

    /** Waits at most the given time; returns true if the future completed. */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException;

    /** Like {@link #await(long, TimeUnit)}, without being interruptible. */
    boolean awaitUninterruptibly(long timeout, TimeUnit unit);

    /** The result if completed successfully, else null; never blocks. */
    V getNow();

    /** The executor that notifies this future's listeners. */
    EventExecutor executor();

    /** A {@link CompletionStage} view that completes with this future. */
    default CompletionStage<V> asStage() {
        return toCompletableFuture().minimalCompletionStage();
    }

    /**
     * A new {@link CompletableFuture} that completes when this future does. Cancelling the
     * returned future cancels this one.
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
