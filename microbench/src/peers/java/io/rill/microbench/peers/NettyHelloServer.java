package io.rill.microbench.peers;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty 4.1 answering the plaintext test like Rill's {@code http-hello} (same four fields, same
 * 13-byte body, write per request, flush per read batch), written the way Netty's own plaintext
 * entries are: the body is a duplicate of one unreleasable direct buffer, the date is formatted
 * once per second. For the side-by-side load runs of {@code microbench/scripts/http-load.sh}.
 * Usage: {@code [nio|epoll] PORT}: one event loop, like the script's Rill runs.
 */
public final class NettyHelloServer {

    private NettyHelloServer() {
    }

    public static void main(String[] args) throws Exception {
        boolean epoll = args.length > 1 && args[0].equals("epoll");
        int port = Integer.parseInt(args[args.length - 1]);
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        Hello hello = new Hello();
        Channel server = new ServerBootstrap().group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), hello);
                    }
                }).bind("127.0.0.1", port).sync().channel();
        System.out.println("Listening on 127.0.0.1:" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> group.shutdownGracefully()));
        server.closeFuture().sync();
    }

    @ChannelHandler.Sharable
    private static final class Hello extends ChannelInboundHandlerAdapter {
        private static final ByteBuf BODY = Unpooled.unreleasableBuffer(
                Unpooled.directBuffer(13).writeBytes("Hello, World!".getBytes(StandardCharsets.US_ASCII)));
        private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
        private static final AsciiString LENGTH = AsciiString.cached("13");
        private static final AsciiString SERVER = AsciiString.cached("Netty");
        private volatile long dateSecond;
        private volatile AsciiString date = AsciiString.EMPTY_STRING;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        BODY.duplicate(), false);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN).set(HttpHeaderNames.CONTENT_LENGTH, LENGTH)
                        .set(HttpHeaderNames.SERVER, SERVER).set(HttpHeaderNames.DATE, date());
                ctx.write(response, ctx.voidPromise());
            }
            ReferenceCountUtil.release(msg);
        }

        private AsciiString date() {
            long second = System.currentTimeMillis() / 1000;
            if (second != dateSecond) {
                date = AsciiString.cached(DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
                dateSecond = second;
            }
            return date;
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
