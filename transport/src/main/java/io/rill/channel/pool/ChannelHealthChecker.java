package io.rill.channel.pool;

import io.rill.channel.Channel;
import io.rill.util.concurrent.Future;

/**
 * Decides whether an idle channel may be lent again; an unhealthy one is closed and another tried.
 * A checker may do I/O (a ping) and complete later; it must not block.
 */
@FunctionalInterface
public interface ChannelHealthChecker {

    /** Healthy while the channel is active (connected and not closed); answers at once. */
    ChannelHealthChecker ACTIVE = channel -> channel.eventLoop().newSucceededFuture(channel.isActive());

    /**
     * Checks {@code channel}.
     *
     * @param channel an idle channel of the pool
     * @return a future of true if it may be lent; a failed future counts as unhealthy
     */
    Future<Boolean> isHealthy(Channel channel);
}
