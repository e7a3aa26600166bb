package io.rill.bootstrap;

import io.rill.channel.Channel;
import io.rill.channel.EventLoop;

/**
 * Makes the channels a {@link Bootstrap} connects or binds, each on the loop it is given (a
 * channel's loop is fixed at construction). A transport's constructor fits:
 * {@code NioSocketChannel::new}.
 */
@FunctionalInterface
public interface ChannelFactory<C extends Channel> {

    C newChannel(EventLoop loop) throws Exception;
}
