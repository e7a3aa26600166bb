/**
 * Pools of client channels: {@link io.rill.channel.pool.SimpleChannelPool} (unbounded, reuses idle
 * channels), {@link io.rill.channel.pool.FixedChannelPool} (at most N connections, a bounded queue
 * of waiting acquires, acquire timeouts) and {@link io.rill.channel.pool.AbstractChannelPoolMap}
 * (one pool per key, e.g. per host).
 *
 * <p>Threading: each pool keeps its state on one {@link io.rill.util.concurrent.EventExecutor}
 * given when it is built (usually an event loop of the bootstrap's group). Calls from other
 * threads are handed to it, so the pool needs no locks; its channels still run on whatever loops
 * the bootstrap's group gives them.
 */
package io.rill.channel.pool;
