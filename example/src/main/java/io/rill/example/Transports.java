package io.rill.example;

import io.rill.bootstrap.ChannelFactory;
import io.rill.bootstrap.ServerChannelFactory;
import io.rill.channel.Channel;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollDatagramChannel;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollServerSocketChannel;
import io.rill.channel.epoll.EpollSocketChannel;
import io.rill.channel.nio.NioDatagramChannel;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * Turns {@code --transport} and {@code --threads} into an event loop group and channel factories:
 * {@code nio}, {@code epoll} (refused with the reason when it cannot load), or {@code auto}, which
 * is epoll where available and NIO elsewhere. Switching is only this: another I/O handler
 * factory and other channel classes.
 */
final class Transports {

    private Transports() {
    }

    static MultiThreadIoEventLoopGroup newGroup(ExampleOptions options, String name) {
        return new MultiThreadIoEventLoopGroup(options.threads, new DefaultThreadFactory(name),
                useEpoll(options) ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    static ServerChannelFactory<? extends Channel> serverChannel(ExampleOptions options) {
        if (useEpoll(options)) {
            return EpollServerSocketChannel::new;
        }
        return NioServerSocketChannel::new;
    }

    static ChannelFactory<? extends Channel> clientChannel(ExampleOptions options) {
        if (useEpoll(options)) {
            return EpollSocketChannel::new;
        }
        return NioSocketChannel::new;
    }

    /** A UDP socket's channel: {@code EpollDatagramChannel} or {@code NioDatagramChannel}. */
    static ChannelFactory<? extends Channel> datagramChannel(ExampleOptions options) {
        if (useEpoll(options)) {
            return EpollDatagramChannel::new;
        }
        return NioDatagramChannel::new;
    }

    private static boolean useEpoll(ExampleOptions options) {
        switch (options.transport) {
            case "epoll":
                if (!Epoll.isAvailable()) {
                    throw new ExampleOptions.UsageException("--transport epoll: not available here: "
                            + Epoll.unavailabilityCause().getMessage() + "; use --transport nio (or auto)");
                }
                return true;
            case "auto":
                return Epoll.isAvailable();
            default:
                return false;
        }
    }
}
