package io.rill.channel.pool;

import io.rill.channel.Channel;

/**
 * What a pool tells its user about its channels. {@link #channelCreated} builds the pipeline of
 * each new channel (the pool replaces the bootstrap's own handler); the other two let the user
 * prepare a channel for its next owner or tidy it up when it comes back.
 */
public interface ChannelPoolHandler {

    /**
     * A new channel, before it connects; runs on the channel's event loop. Add the handlers here.
     *
     * @param channel the new channel
     * @throws Exception closes the channel and fails the acquire that asked for it
     */
    void channelCreated(Channel channel) throws Exception;

    /**
     * A channel is about to be handed to an acquirer; runs on the pool's executor.
     *
     * @param channel the channel
     */
    default void channelAcquired(Channel channel) {
    }

    /**
     * A channel came back and goes idle; runs on the pool's executor.
     *
     * @param channel the channel
     */
    default void channelReleased(Channel channel) {
    }
}
