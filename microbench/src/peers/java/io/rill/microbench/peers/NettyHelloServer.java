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
 * Netty 4.1's NIO transport answering the plaintext test exactly like Rill's {@code http-hello}
 * (same four fields, same 13-byte body, write per request, flush per read batch), for the
 * side-by-side load runs of {@code microbench/scripts/http-load.sh}. Usage: {@code PORT [THREADS]} (one event loop by default, like the script's Rill run).
 */
public final class NettyHelloServer {

    private NettyHelloServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        NioEventLoopGroup group = new NioEventLoopGroup(threads);
        Hello hello = new Hello();
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
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
        private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
        private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
        private static final AsciiString LENGTH = AsciiString.cached("13");
        private static final AsciiString SERVER = AsciiString.cached("Netty");
        private volatile long dateSecond;
        private volatile AsciiString date = AsciiString.EMPTY_STRING;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                ByteBuf body = Unpooled.wrappedBuffer(BODY);
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body, false);
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
