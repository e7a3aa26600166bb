package io.rill.microbench.peers;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * Netty 4.1's HTTP/2 hello world, the peer of Rill's {@code http2-hello} in
 * {@code microbench/scripts/h2-load.sh}: h2c by prior knowledge, {@code GET} of any path answers
 * {@code Hello, World!} with the same three response fields, the pooled allocator, no frame
 * logger. {@code --api listener} (the default) is the fastest shape Netty offers and the one gRPC
 * Java builds on: an {@code Http2ConnectionHandler} with an {@code Http2FrameListener}, no frame
 * or stream objects. {@code --api frame} is the shape of Rill's example: {@code Http2FrameCodec}
 * with one handler on the connection reading frame objects.
 * Usage: {@code [--transport nio|epoll] [--threads N] [--api listener|frame] [--port] PORT}.
 */
public final class NettyHttp2HelloServer {

    /** The settings both servers announce: Rill's http2-hello caps streams at 100 as well. */
    static Http2Settings settings() {
        return Http2Settings.defaultSettings().maxConcurrentStreams(100);
    }

    private NettyHttp2HelloServer() {
    }

    public static void main(String[] args) throws Exception {
        String transport = "nio";
        String api = "listener";
        int threads = 1;
        int port = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--transport" -> transport = args[++i];
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--api" -> api = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                default -> port = Integer.parseInt(args[i]);
            }
        }
        if (port < 0 || !(transport.equals("nio") || transport.equals("epoll"))
                || !(api.equals("listener") || api.equals("frame"))) {
            System.err.println("usage: NettyHttp2HelloServer [--transport nio|epoll] [--threads N]"
                    + " [--api listener|frame] --port PORT");
            System.exit(2);
        }
        boolean epoll = transport.equals("epoll");
        boolean frames = api.equals("frame");
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
        HelloFrameHandler frameHandler = new HelloFrameHandler();
        Channel server = new ServerBootstrap().group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ChannelHandler codec = frames
                                ? Http2FrameCodecBuilder.forServer().initialSettings(settings()).build()
                                : new HelloListener.Builder().build();
                        ch.pipeline().addLast(codec);
                        if (frames) {
                            ch.pipeline().addLast(frameHandler);
                        }
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("Listening on 127.0.0.1:" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> group.shutdownGracefully()));
        server.closeFuture().sync();
    }
}
