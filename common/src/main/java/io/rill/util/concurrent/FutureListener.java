package io.rill.util.concurrent;

/**
 * Called once a {@link Future} completes. Runs on the future's executor; an exception it throws
 * is logged and does not stop the other listeners.
 *
 * @param <V> the result type of the futures it listens to
 */
@FunctionalInterface
public interface FutureListener<V> {

    /**
     * Called once the future completed, on the future's executor. An exception thrown here is logged and does
     * not reach other listeners.
     *
     * @param future the completed future
     * @throws Exception anything; it is logged
     */
    void operationComplete(Future<? extends V> future) throws Exception;
}
