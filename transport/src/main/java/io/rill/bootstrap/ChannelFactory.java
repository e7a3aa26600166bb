package io.rill.bootstrap;

import io.rill.channel.Channel;
import io.rill.channel.EventLoop;

/**
 * Makes the channels a {@link Bootstrap} connects or binds, each on the loop it is given (a
 * channel's loop is fixed at construction). A transport's constructor fits:
 * {@code NioSocketChannel::new}.
 *
 * @param <C> the channel type it makes
 */
@FunctionalInterface
public interface ChannelFactory<C extends Channel> {

    /**
     * Makes a channel that runs on {@code loop} for its whole life.
     *
     * @param loop the channel's event loop
     * @return the new, unregistered channel
     * @throws Exception if the channel cannot be made (no descriptor left, say)
     */
    C newChannel(EventLoop loop) throws Exception;
}
