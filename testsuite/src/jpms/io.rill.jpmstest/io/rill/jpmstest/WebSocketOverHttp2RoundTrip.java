package io.rill.jpmstest;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.websocketx.Http2WebSocketClientHandler;
import io.rill.handler.codec.http2.websocketx.Http2WebSocketServerHandler;

/**
 * One WebSocket message over HTTP/2 (RFC 8441, cleartext with prior knowledge) over loopback: the
 * server's stream answers a text frame with it upper-cased. It goes through both HTTP modules and
 * what io.rill.codec.http exports to io.rill.codec.http2 alone, so it fails on the module path if
 * the HTTP/2 module reaches anything the HTTP/1.1 one does not export to it. Everything it opens
 * is closed before it returns.
 */
final class WebSocketOverHttp2RoundTrip {

    private static final int MAX_PAYLOAD = 64 * 1024;
    private static final long TIMEOUT_SECONDS = 20;

    private WebSocketOverHttp2RoundTrip() {
    }

    static String run(Transport transport) throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, transport.ioHandlerFactory());
        try {
            WebSocketServerProtocolHandler.Builder ws = WebSocketServerProtocolHandler.builder("/upper")
                    .maxPayload(MAX_PAYLOAD, MAX_PAYLOAD);
            Channel server = await(new ServerBootstrap().group(group).channelFactory(transport.serverChannel())
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(Http2FrameCodec.forServer().enableConnectProtocol(true).build(),
                                    new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                        @Override
                                        protected void initChannel(Http2StreamChannel stream) {
                                            stream.pipeline().addLast(Http2WebSocketServerHandler.of(ws),
                                                    new UpperCaser());
                                        }
                                    }));
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).toCompletableFuture());
            try {
                return exchange(group, transport, ((InetSocketAddress) server.localAddress()).getPort());
            } finally {
                await(server.close().toCompletableFuture());
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private static String exchange(MultiThreadIoEventLoopGroup group, Transport transport, int port)
            throws Exception {
        Channel connection = await(new Bootstrap().group(group).channelFactory(transport.clientChannel())
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodec.forClient().build(), new Http2MultiplexHandler(null));
                    }
                })
                .connect("127.0.0.1", port).toCompletableFuture());
        try {
            CompletableFuture<String> answer = new CompletableFuture<>();
            Http2WebSocketClientHandler handler = new Http2WebSocketClientHandler(new WebSocketClientHandshaker(
                    URI.create("ws://localhost:" + port + "/upper"), List.of(), new HttpHeaders(), null,
                    WebSocketExtensionNegotiator.NONE), MAX_PAYLOAD, MAX_PAYLOAD, Duration.ofSeconds(10),
                    Duration.ofSeconds(10));
            Http2StreamChannel stream = await(handler.open(connection, new Receiver(answer)).toCompletableFuture());
            stream.writeAndFlush(new TextWebSocketFrame("ping"));
            String got = await(answer);
            if (!got.equals("PING")) {
                throw new IllegalStateException("expected PING, got " + got);
            }
            // The close handshake ends the stream both ways; a connection closed with a stream
            // still open would first wait for it (a graceful GOAWAY).
            stream.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.NORMAL_CLOSURE, "done"));
            await(stream.closeFuture().toCompletableFuture());
            return got + " over a WebSocket on an HTTP/2 stream";
        } finally {
            // At once, whatever is left open after a failure.
            await(connection.pipeline().firstContext().close().toCompletableFuture());
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Answers each text frame with its text upper-cased; the stream's WebSocket handlers do the rest. */
    private static final class UpperCaser implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame text) {
                String upper = text.text().toUpperCase(Locale.ROOT);
                text.release();
                ctx.writeAndFlush(new TextWebSocketFrame(upper));
            } else {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** Completes {@code answer} with the first text frame's text, or with the failure. */
    private static final class Receiver implements ChannelHandler {
        private final CompletableFuture<String> answer;

        Receiver(CompletableFuture<String> answer) {
            this.answer = answer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame text) {
                answer.complete(text.text());
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            answer.completeExceptionally(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            answer.completeExceptionally(new IllegalStateException("stream closed before an answer"));
            ctx.fireChannelInactive();
        }
    }
}
