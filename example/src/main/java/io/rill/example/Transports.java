package io.rill.example;

import io.rill.bootstrap.ChannelFactory;
import io.rill.bootstrap.ServerChannelFactory;
import io.rill.channel.Channel;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * Turns {@code --transport} and {@code --threads} into an event loop group and channel factories.
 * Only NIO exists so far: {@code auto} picks it, {@code epoll} is refused with a clear message.
 */
final class Transports {

    private Transports() {
    }

    static MultiThreadIoEventLoopGroup newGroup(ExampleOptions options, String name) {
        requireAvailable(options);
        return new MultiThreadIoEventLoopGroup(options.threads, new DefaultThreadFactory(name), NioIoHandler.newFactory());
    }

    static ServerChannelFactory<? extends Channel> serverChannel(ExampleOptions options) {
        requireAvailable(options);
        return NioServerSocketChannel::new;
    }

    static ChannelFactory<? extends Channel> clientChannel(ExampleOptions options) {
        requireAvailable(options);
        return NioSocketChannel::new;
    }

    private static void requireAvailable(ExampleOptions options) {
        if (options.transport.equals("epoll")) {
            throw new ExampleOptions.UsageException(
                    "--transport epoll: the epoll transport is not built yet; use --transport nio (or auto)");
        }
    }
}
