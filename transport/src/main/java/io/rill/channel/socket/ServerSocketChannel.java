package io.rill.channel.socket;

import io.rill.channel.Channel;

/**
 * A listening socket. Each accepted connection is fired through this channel's pipeline as a
 * {@code channelRead} of a new {@link SocketChannel}, created on the loop the server was given
 * for its children and not yet registered; the server bootstrap's acceptor sets it up.
 */
public interface ServerSocketChannel extends Channel {

    @Override
    ServerSocketChannelConfig config();
}
