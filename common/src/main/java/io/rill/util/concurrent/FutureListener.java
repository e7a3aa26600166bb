package io.rill.util.concurrent;

/**
 * Called once a {@link Future} completes. Runs on the future's executor; an exception it throws
 * is logged and does not stop the other listeners.
 */
@FunctionalInterface
public interface FutureListener<V> {

    void operationComplete(Future<? extends V> future) throws Exception;
}
