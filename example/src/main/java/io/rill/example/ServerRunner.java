package io.rill.example;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelOption;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.WriteBufferWaterMark;

/**
 * Runs a server until the JVM is asked to stop: binds, prints {@code Listening on host:port} once
 * accepting (scripts wait for that line), and on SIGTERM or Ctrl-C closes the listener and shuts
 * the loops down gracefully from a shutdown hook. A peer that does not read its answers is not
 * read from either: the transport pauses reading an accepted channel while it is not writable
 * ({@code ChannelOption.PAUSE_READ_WHEN_UNWRITABLE}, on by default).
 */
final class ServerRunner {

    /** The limit the transport's read pause sets, for the examples' {@code --help}. */
    static final String READING_LIMIT = "a peer that does not read its answers is not read from either once "
            + WriteBufferWaterMark.DEFAULT.high() / 1024 + " KiB of them wait (the outbound high water mark)";

    private ServerRunner() {
    }

    static void run(ExampleOptions options, String name, ChannelHandler childHandler) throws Exception {
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name);
        Channel server;
        try {
            server = new ServerBootstrap().group(group).channelFactory(Transports.serverChannel(options))
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childHandler(childHandler)
                    .bind(new InetSocketAddress(options.host, options.port)).sync().getNow();
        } catch (Exception e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new StartupFailure("cannot listen on " + options.host + ":" + options.port, e);
        }
        Thread stopper = new Thread(() -> {
            server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }, name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        System.out.println("Listening on " + options.host + ":" + port);
        System.out.flush();
        server.closeFuture().sync();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }

}
