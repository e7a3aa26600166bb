package io.rill.jpmstest;

import io.rill.bootstrap.ChannelFactory;
import io.rill.bootstrap.ServerChannelFactory;
import io.rill.channel.Channel;
import io.rill.channel.IoHandlerFactory;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollServerSocketChannel;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;

/** The two TCP transports: what differs between them is only these three factories. */
enum Transport {
    NIO, EPOLL;

    IoHandlerFactory ioHandlerFactory() {
        if (this == EPOLL) {
            // A refusal here fails the round trip with the loader's reason instead of skipping it.
            Epoll.ensureAvailability();
            return EpollIoHandler.newFactory();
        }
        return NioIoHandler.newFactory();
    }

    ServerChannelFactory<? extends Channel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel::new : NioServerSocketChannel::new;
    }

    ChannelFactory<? extends Channel> clientChannel() {
        return this == EPOLL ? EpollSocketChannel::new : NioSocketChannel::new;
    }
}
