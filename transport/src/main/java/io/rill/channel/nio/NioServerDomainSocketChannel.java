package io.rill.channel.nio;

import java.net.StandardProtocolFamily;

import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;

/**
 * A {@link NioServerSocketChannel} listening on a Unix-domain path ({@code UnixDomainSocketAddress},
 * JDK 16+); its children are {@link NioDomainSocketChannel}s. Named so bootstraps can use it
 * ({@code .channel(NioServerDomainSocketChannel.class)}); the socket file is deleted on close.
 */
public class NioServerDomainSocketChannel extends NioServerSocketChannel {

    /**
     * A Unix-domain server whose children live on {@code loop} as well.
     *
     * @param loop a loop running a {@link NioIoHandler}
     */
    public NioServerDomainSocketChannel(EventLoop loop) {
        this(loop, loop);
    }

    /**
     * A Unix-domain server whose children are spread over {@code childGroup}.
     *
     * @param loop a loop running a {@link NioIoHandler}
     * @param childGroup the loops accepted channels are spread over
     */
    public NioServerDomainSocketChannel(EventLoop loop, EventLoopGroup childGroup) {
        super(loop, childGroup, StandardProtocolFamily.UNIX);
    }
}
