package io.rill.channel.pool;

import java.io.Closeable;

import io.rill.channel.Channel;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Lends connected channels and takes them back. {@link #acquire()} completes with a channel that
 * the caller owns until it hands it back with {@link #release(Channel)}; the pool may connect a new
 * channel or reuse one released earlier. A released channel must not be used by its former owner.
 *
 * <p>Every method may be called from any thread; the pool's state lives on one executor (see the
 * implementations), so callers never block and the pool takes no locks.
 */
public interface ChannelPool extends Closeable {

    /**
     * Lends a channel.
     *
     * @return a future completed with a channel, or failed (e.g. with {@link ChannelPoolClosedException})
     */
    Future<Channel> acquire();

    /**
     * Lends a channel, completing {@code promise}. If the promise is already done (cancelled by the
     * caller) when a channel becomes available, that channel goes straight back to the pool.
     *
     * @param promise completed with the channel, or failed
     * @return {@code promise}
     */
    Future<Channel> acquire(Promise<Channel> promise);

    /**
     * Takes back a channel that {@link #acquire()} lent. A channel this pool did not lend, or one
     * already released, fails the future with an {@link IllegalArgumentException}.
     *
     * @param channel the channel to return
     * @return a future completed once the pool has taken it back (or closed it)
     */
    Future<Void> release(Channel channel);

    /**
     * Closes the pool: idle channels are closed, acquires still pending fail, later acquires fail
     * with {@link ChannelPoolClosedException}, and channels lent out are closed when released.
     *
     * @return a future completed once every idle channel is closed
     */
    Future<Void> closeAsync();

    /** Starts {@link #closeAsync()} without waiting for it, so it is safe on an event loop. */
    @Override
    default void close() {
        closeAsync();
    }
}
