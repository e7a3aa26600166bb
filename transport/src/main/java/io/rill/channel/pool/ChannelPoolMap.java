package io.rill.channel.pool;

import java.io.Closeable;

/**
 * One {@link ChannelPool} per key (a host, a host and port, a tenant), created on first use.
 *
 * @param <K> the key
 * @param <P> the pool type
 */
public interface ChannelPoolMap<K, P extends ChannelPool> extends Closeable {

    /**
     * The pool for {@code key}, created if there is none.
     *
     * @param key the key
     * @return its pool
     * @throws ChannelPoolClosedException if the map is closed
     */
    P get(K key);

    /**
     * Whether a pool exists for {@code key}.
     *
     * @param key the key
     * @return true if {@link #get} would not create one
     */
    boolean contains(K key);

    /**
     * Removes and closes the pool for {@code key}.
     *
     * @param key the key
     * @return true if there was one
     */
    boolean remove(K key);

    /** Closes every pool; later {@link #get} calls fail. */
    @Override
    void close();
}
