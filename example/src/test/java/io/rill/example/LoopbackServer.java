package io.rill.example;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;

/** An example's pipeline served on 127.0.0.1 by NIO loops (one unless told), for tests; close() stops it. */
final class LoopbackServer implements AutoCloseable {

    private final MultiThreadIoEventLoopGroup group;
    private final Channel server;

    LoopbackServer(ChannelHandler initializer) throws Exception {
        this(initializer, 1);
    }

    /** With {@code threads} loops, connections take turns: the first few each get their own. */
    LoopbackServer(ChannelHandler initializer, int threads) throws Exception {
        group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channelFactory(NioServerSocketChannel::new).childHandler(initializer)
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
    }

    /** Over {@code transport} as the examples' {@code --transport} names it (nio, epoll). */
    LoopbackServer(ChannelHandler initializer, int threads, String transport) throws Exception {
        ExampleOptions options = ExampleOptions.parse(
                new String[] {"--transport", transport, "--threads", Integer.toString(threads)}, java.util.List.of());
        group = Transports.newGroup(options, "test-" + transport);
        server = new ServerBootstrap().group(group).channelFactory(Transports.serverChannel(options))
                .childHandler(initializer).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
