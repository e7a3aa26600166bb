package io.rill.handler.codec.http2;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;

/** A real NIO server on 127.0.0.1 (and clients of it) whose connections are set up by a callback. */
final class LoopbackServer implements AutoCloseable {

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;

    LoopbackServer(Consumer<Channel> connection) throws Exception {
        server = new ServerBootstrap().group(group).channelFactory(NioServerSocketChannel::new)
                .childHandler(initializer(connection))
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** A client connection to this server, set up by {@code connection}. */
    Channel connect(Consumer<Channel> connection) throws Exception {
        return new Bootstrap().group(group).channelFactory(NioSocketChannel::new).handler(initializer(connection))
                .connect(new InetSocketAddress("127.0.0.1", port())).sync().getNow();
    }

    private static ChannelInitializer<Channel> initializer(Consumer<Channel> connection) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                connection.accept(ch);
            }
        };
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
