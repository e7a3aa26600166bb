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

/**
 * Netty's TCP echo, the peer of Rill's {@code echo-server} in {@code microbench/scripts/echo-load.sh}:
 * the buffer read is written back with a void promise and flushed once per read batch, the
 * shape Netty's fastest servers use. Usage: {@code [nio|epoll] PORT}: one event loop.
 */
public final class NettyEchoServer {

    private NettyEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        boolean epoll = args.length > 1 && args[0].equals("epoll");
        int port = Integer.parseInt(args[args.length - 1]);
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        Echo echo = new Echo();
        Channel server = new ServerBootstrap().group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(echo);
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
            ctx.write(msg, ctx.voidPromise());
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
