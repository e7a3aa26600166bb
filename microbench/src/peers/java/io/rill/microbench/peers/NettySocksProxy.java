package io.rill.microbench.peers;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.socksx.SocksPortUnificationServerHandler;
import io.netty.handler.codec.socksx.v5.DefaultSocks5CommandResponse;
import io.netty.handler.codec.socksx.v5.DefaultSocks5InitialResponse;
import io.netty.handler.codec.socksx.v5.Socks5AuthMethod;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequest;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5CommandStatus;
import io.netty.handler.codec.socksx.v5.Socks5CommandType;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequest;
import io.netty.handler.codec.socksx.v5.Socks5Message;
import io.netty.handler.codec.socksx.v5.Socks5ServerEncoder;

/**
 * Netty 4.1's SOCKS5 relay, the peer of Rill's {@code socks-proxy} in
 * {@code microbench/scripts/socks-load.sh}. Its shape is that of Netty's own SOCKS server example:
 * the port-unification handler picks the SOCKS version, a handler answers the greeting and the
 * CONNECT, the destination is connected from the client's event loop, then two relay handlers copy
 * bytes. The relay writes with a void promise and flushes once per read batch, as Netty's fastest
 * servers do (the example's write-and-flush per message costs a promise more), and stops reading
 * while the other side is not writable, as Rill's does, so both hold the same bounded memory.
 * No authentication, no logging handler. Usage: {@code [nio|epoll] PORT}: one event loop.
 */
public final class NettySocksProxy {

    private NettySocksProxy() {
    }

    public static void main(String[] args) throws Exception {
        boolean epoll = args.length > 1 && args[0].equals("epoll");
        int port = Integer.parseInt(args[args.length - 1]);
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        Class<? extends Channel> clientChannel = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        Channel server = new ServerBootstrap().group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new SocksPortUnificationServerHandler(), new Handshake(clientChannel));
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("Listening on 127.0.0.1:" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> group.shutdownGracefully()));
        server.closeFuture().sync();
    }

    /** The greeting (no authentication) and the CONNECT; replaced by a {@link Relay}. */
    private static final class Handshake extends SimpleChannelInboundHandler<Socks5Message> {
        private final Class<? extends Channel> clientChannel;

        Handshake(Class<? extends Channel> clientChannel) {
            this.clientChannel = clientChannel;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Socks5Message msg) {
            if (msg instanceof Socks5InitialRequest) {
                ctx.pipeline().addFirst(new Socks5CommandRequestDecoder());
                ctx.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.NO_AUTH));
            } else if (msg instanceof Socks5CommandRequest request && request.type() == Socks5CommandType.CONNECT) {
                connect(ctx, request);
            } else {
                ctx.close();
            }
        }

        private void connect(ChannelHandlerContext ctx, Socks5CommandRequest request) {
            Channel inbound = ctx.channel();
            inbound.config().setAutoRead(false);
            ChannelFuture connected = new Bootstrap().group(inbound.eventLoop()).channel(clientChannel)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.AUTO_READ, false)
                    .handler(new Relay(inbound))
                    .connect(request.dstAddr(), request.dstPort());
            connected.addListener((ChannelFuture f) -> {
                if (!f.isSuccess()) {
                    ctx.writeAndFlush(new DefaultSocks5CommandResponse(Socks5CommandStatus.FAILURE, request.dstAddrType()))
                            .addListener(x -> ctx.close());
                    return;
                }
                Channel outbound = f.channel();
                ctx.writeAndFlush(new DefaultSocks5CommandResponse(Socks5CommandStatus.SUCCESS, request.dstAddrType(),
                        request.dstAddr(), request.dstPort()));
                ctx.pipeline().remove(Socks5ServerEncoder.class);
                ctx.pipeline().replace(this, null, new Relay(outbound));
                inbound.config().setAutoRead(true);
                outbound.config().setAutoRead(true);
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Copies this side's bytes to the other, reading only while the other side can take them. */
    private static final class Relay extends ChannelInboundHandlerAdapter {
        private final Channel peer;

        Relay(Channel peer) {
            this.peer = peer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            peer.write(msg, peer.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            peer.flush();
            if (!peer.isWritable()) {
                ctx.channel().config().setAutoRead(false);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                peer.config().setAutoRead(true);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            peer.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
            peer.close();
        }
    }
}
