package io.rill.microbench.peers;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty 4.1's WebSocket echo, the peer of Rill's {@code websocket-echo} in
 * {@code microbench/scripts/ws-load.sh}: the pipeline Netty's own WebSocket server example builds
 * (HTTP codec, an aggregator for the upgrade request, the protocol handler at {@code /}), with the
 * same limits as Rill's example (64 KiB frames), no compression (the load generator offers none),
 * frames written back as they came with a void promise and flushed once per read batch.
 * Usage: {@code [nio|epoll] PORT}: one event loop, like the script's Rill runs.
 */
public final class NettyWebSocketEchoServer {

    private NettyWebSocketEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        boolean epoll = args.length > 1 && args[0].equals("epoll");
        int port = Integer.parseInt(args[args.length - 1]);
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        WebSocketServerProtocolConfig config = WebSocketServerProtocolConfig.newBuilder()
                .websocketPath("/").maxFramePayloadLength(65536).build();
        Echo echo = new Echo();
        Channel server = new ServerBootstrap().group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
                                new WebSocketServerProtocolHandler(config), echo);
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("Listening on 127.0.0.1:" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> group.shutdownGracefully()));
        server.closeFuture().sync();
    }

    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof WebSocketFrame) {
                ctx.write(msg, ctx.voidPromise());
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
