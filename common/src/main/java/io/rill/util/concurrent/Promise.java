package io.rill.util.concurrent;

/**
 * A {@link Future} that its producer completes.
 *
 * @param <V> the result type
 */
public interface Promise<V> extends Future<V> {

    /**
     * Completes successfully; throws {@link IllegalStateException} if already complete.
     *
     * @param result the result, may be null
     * @return this promise
     */
    Promise<V> setSuccess(V result);

    /**
     * Completes successfully unless already complete; returns whether this call completed it.
     *
     * @param result the result, may be null
     * @return true if this call completed the promise
     */
    boolean trySuccess(V result);

    /**
     * Fails; throws {@link IllegalStateException} if already complete.
     *
     * @param cause the failure
     * @return this promise
     */
    Promise<V> setFailure(Throwable cause);

    /**
     * Fails unless already complete; returns whether this call completed it.
     *
     * @param cause the failure
     * @return true if this call completed the promise
     */
    boolean tryFailure(Throwable cause);

    /**
     * Makes this promise impossible to cancel. Returns true if it is now uncancellable or completed
     * without being cancelled, false if it was cancelled before.
     *
     * @return false only if the promise was cancelled before
     */
    boolean setUncancellable();

    @Override
    Promise<V> addListener(FutureListener<? super V> listener);

    @Override
    Promise<V> removeListener(FutureListener<? super V> listener);

    @Override
    Promise<V> sync() throws InterruptedException;

    @Override
    Promise<V> syncUninterruptibly();

    @Override
    Promise<V> await() throws InterruptedException;

    @Override
    Promise<V> awaitUninterruptibly();
}
