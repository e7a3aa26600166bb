package io.rill.bootstrap;

import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;

/**
 * Makes the listening channels of a {@link ServerBootstrap}: on {@code loop}, creating the
 * channels it accepts on {@code childGroup.next()}. A transport's constructor fits:
 * {@code NioServerSocketChannel::new}.
 *
 * @param <C> the channel type it makes
 */
@FunctionalInterface
public interface ServerChannelFactory<C extends Channel> {

    /**
     * Makes a listening channel on {@code loop} whose accepted channels go to {@code childGroup}.
     *
     * @param loop the listening channel's event loop
     * @param childGroup the loops for accepted channels
     * @return the new, unregistered channel
     * @throws Exception if the channel cannot be made
     */
    C newChannel(EventLoop loop, EventLoopGroup childGroup) throws Exception;
}
