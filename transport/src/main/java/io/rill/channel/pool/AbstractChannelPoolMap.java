package io.rill.channel.pool;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ChannelPoolMap} that makes each pool with {@link #newPool}. Safe from any thread: the
 * map is concurrent and {@link #newPool} runs at most once per key while it is present.
 *
 * <pre>{@code
 * ChannelPoolMap<InetSocketAddress, FixedChannelPool> pools = new AbstractChannelPoolMap<>() {
 *     protected FixedChannelPool newPool(InetSocketAddress key) {
 *         return FixedChannelPool.builder(SimpleChannelPool.builder(bootstrap.clone().remoteAddress(key),
 *                 group.next(), handler)).maxConnections(4).build();
 *     }
 * };
 * }</pre>
 *
 * @param <K> the key
 * @param <P> the pool type
 */
public abstract class AbstractChannelPoolMap<K, P extends ChannelPool> implements ChannelPoolMap<K, P>, Iterable<Map.Entry<K, P>> {

    private final ConcurrentHashMap<K, P> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** For subclasses. */
    protected AbstractChannelPoolMap() {
    }

    /**
     * Makes the pool for a key seen for the first time.
     *
     * @param key the key
     * @return a new pool
     */
    protected abstract P newPool(K key);

    @Override
    public final P get(K key) {
        if (closed) {
            throw new ChannelPoolClosedException(getClass().getSimpleName() + " is closed");
        }
        P pool = pools.computeIfAbsent(key, this::newPool);
        if (closed && pools.remove(key, pool)) { // lost a race with close(): do not leave a pool open
            pool.close();
            throw new ChannelPoolClosedException(getClass().getSimpleName() + " is closed");
        }
        return pool;
    }

    @Override
    public final boolean contains(K key) {
        return pools.containsKey(key);
    }

    @Override
    public final boolean remove(K key) {
        P pool = pools.remove(key);
        if (pool == null) {
            return false;
        }
        pool.close();
        return true;
    }

    /**
     * The number of pools.
     *
     * @return how many keys have a pool
     */
    public final int size() {
        return pools.size();
    }

    @Override
    public final java.util.Iterator<Map.Entry<K, P>> iterator() {
        return java.util.Collections.unmodifiableMap(pools).entrySet().iterator();
    }

    @Override
    public void close() {
        closed = true;
        for (K key : pools.keySet()) {
            remove(key);
        }
    }
}
