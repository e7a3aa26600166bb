package io.rill.channel.epoll;

import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;

/**
 * An {@link EpollServerSocketChannel} listening on a Unix-domain path; its children are
 * {@link EpollDomainSocketChannel}s, and the socket file is deleted when it closes so the path
 * can be bound again.
 */
public class EpollServerDomainSocketChannel extends EpollServerSocketChannel {

    /**
     * A Unix-domain server whose children live on {@code loop} as well.
     *
     * @param loop the event loop of the listening socket and its children
     */
    public EpollServerDomainSocketChannel(EventLoop loop) {
        this(loop, loop);
    }

    /**
     * A Unix-domain server whose children are spread over {@code childGroup}.
     *
     * @param loop the event loop of the listening socket
     * @param childGroup the group whose loops accepted channels are spread over
     */
    public EpollServerDomainSocketChannel(EventLoop loop, EventLoopGroup childGroup) {
        super(loop, childGroup, true);
    }
}
