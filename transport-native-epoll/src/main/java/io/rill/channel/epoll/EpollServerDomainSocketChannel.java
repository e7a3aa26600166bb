package io.rill.channel.epoll;

import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;

/**
 * An {@link EpollServerSocketChannel} listening on a Unix-domain path; its children are
 * {@link EpollDomainSocketChannel}s, and the socket file is deleted when it closes so the path
 * can be bound again.
 */
public class EpollServerDomainSocketChannel extends EpollServerSocketChannel {

    public EpollServerDomainSocketChannel(EventLoop loop) {
        this(loop, loop);
    }

    public EpollServerDomainSocketChannel(EventLoop loop, EventLoopGroup childGroup) {
        super(loop, childGroup, true);
    }
}
