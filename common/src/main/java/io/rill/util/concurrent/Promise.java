package io.rill.util.concurrent;

/** A {@link Future} that its producer completes. */
public interface Promise<V> extends Future<V> {

    /** Completes successfully; throws {@link IllegalStateException} if already complete. */
    Promise<V> setSuccess(V result);

    /** Completes successfully unless already complete; returns whether this call completed it. */
    boolean trySuccess(V result);

    /** Fails; throws {@link IllegalStateException} if already complete. */
    Promise<V> setFailure(Throwable cause);

    /** Fails unless already complete; returns whether this call completed it. */
    boolean tryFailure(Throwable cause);

    /**
     * Makes this promise impossible to cancel. Returns true if it is now uncancellable or completed
     * without being cancelled, false if it was cancelled before.
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
