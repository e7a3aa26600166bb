package io.rill.resolver.dns;

import io.rill.bootstrap.ChannelFactory;
import io.rill.channel.Channel;
import io.rill.channel.IoHandlerFactory;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollDatagramChannel;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.channel.nio.NioDatagramChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioSocketChannel;

/** The transports the resolver's socket tests run over. */
enum Transport {
    NIO, EPOLL;

    IoHandlerFactory ioHandler() {
        return this == NIO ? NioIoHandler.newFactory() : EpollIoHandler.newFactory();
    }

    ChannelFactory<? extends Channel> datagram() {
        return this == NIO ? NioDatagramChannel::new : EpollDatagramChannel::new;
    }

    ChannelFactory<? extends Channel> stream() {
        return this == NIO ? NioSocketChannel::new : EpollSocketChannel::new;
    }

    boolean available() {
        return this == NIO || Epoll.isAvailable();
    }
}
