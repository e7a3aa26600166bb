package io.rill.jpmstest;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * One HTTP/1.1 exchange over loopback: a server that answers a POST with its body upper-cased,
 * and a client that sends one and returns what came back plus, over TLS, the negotiated protocol
 * and provider. Everything it opens is closed before it returns.
 */
final class HttpRoundTrip {

    private static final int MAX_BODY = 64 * 1024;
    private static final long TIMEOUT_SECONDS = 20;

    private HttpRoundTrip() {
    }

    static String run(Transport transport, Security security) throws Exception {
        SelfSignedCertificate cert = security.provider == null ? null : new SelfSignedCertificate();
        SslContext serverTls = null;
        SslContext clientTls = null;
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, transport.ioHandlerFactory());
        try {
            if (cert != null) {
                serverTls = SslContextBuilder.forServer(cert.key(), cert.certificate())
                        .sslProvider(security.provider).build();
                clientTls = SslContextBuilder.forClient().trustManager(cert.certificate())
                        .sslProvider(security.provider).build();
            }
            SslContext serverTlsFinal = serverTls;
            Channel server = await(new ServerBootstrap().group(group).channelFactory(transport.serverChannel())
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (serverTlsFinal != null) {
                                ch.pipeline().addLast(serverTlsFinal.newHandler(ch.alloc()));
                            }
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY),
                                    new UpperCaser());
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).toCompletableFuture());
            try {
                int port = ((InetSocketAddress) server.localAddress()).getPort();
                return exchange(group, transport, clientTls, port);
            } finally {
                await(server.close().toCompletableFuture());
            }
        } finally {
            if (clientTls != null) {
                clientTls.close();
            }
            if (serverTls != null) {
                serverTls.close();
            }
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            if (cert != null) {
                cert.delete();
            }
        }
    }

    private static String exchange(MultiThreadIoEventLoopGroup group, Transport transport, SslContext tls, int port)
            throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        Channel client = await(new Bootstrap().group(group).channelFactory(transport.clientChannel())
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (tls != null) {
                            // "localhost": the self-signed certificate names it, and the client checks names.
                            ch.pipeline().addLast(tls.newHandler(ch.alloc(), "localhost", port));
                        }
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_BODY),
                                new Receiver(answer));
                    }
                })
                .connect("127.0.0.1", port).toCompletableFuture());
        try {
            String tlsInfo = "";
            if (tls != null) {
                SslHandler ssl = client.pipeline().get(SslHandler.class);
                await(ssl.handshakeFuture().toCompletableFuture());
                tlsInfo = " over " + ssl.engine().getSession().getProtocol() + " (" + tls.provider() + ")";
            }
            byte[] body = "ping".getBytes(StandardCharsets.US_ASCII);
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/upper",
                    Unpooled.wrappedBuffer(body));
            request.headers().set(HttpHeaderNames.HOST, "localhost:" + port)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            client.writeAndFlush(request);
            String got = await(answer);
            if (!got.equals("PING")) {
                throw new IllegalStateException("expected PING, got " + got);
            }
            return got + tlsInfo;
        } finally {
            await(client.close().toCompletableFuture());
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Answers each request with its body upper-cased. */
    static final class UpperCaser implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpRequest request = (FullHttpRequest) msg;
            String text;
            try {
                text = request.content().toString(StandardCharsets.US_ASCII).toUpperCase(java.util.Locale.ROOT);
            } finally {
                request.release();
            }
            byte[] body = text.getBytes(StandardCharsets.US_ASCII);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            ctx.writeAndFlush(response);
        }
    }

    /** Completes {@code answer} with the first response's body, or with the failure. */
    static final class Receiver implements ChannelHandler {
        private final CompletableFuture<String> answer;

        Receiver(CompletableFuture<String> answer) {
            this.answer = answer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpResponse response = (FullHttpResponse) msg;
            try {
                if (!response.status().equals(HttpResponseStatus.OK)) {
                    answer.completeExceptionally(new IllegalStateException("status " + response.status()));
                } else {
                    answer.complete(response.content().toString(StandardCharsets.US_ASCII));
                }
            } finally {
                response.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            answer.completeExceptionally(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            answer.completeExceptionally(new IllegalStateException("connection closed before a response"));
            ctx.fireChannelInactive();
        }
    }
}
