package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.SslHandshakeCompletionEvent;
import io.rill.handler.ssl.SslProvider;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * h2 and http/1.1 on one TLS port chosen by ALPN, with the JDK's TLS over loopback sockets: a
 * client offering h2 gets HTTP/2, one offering only http/1.1 or no ALPN at all gets HTTP/1.1.
 */
class Http2AlpnLoopbackTest {

    static final SelfSignedCertificate CERT = new SelfSignedCertificate("localhost");
    private static final SslContext SERVER_TLS = build(HttpAlpnNegotiationHandler.offerH2AndHttp11(
            SslContextBuilder.forServer(CERT.key(), CERT.certificate()).sslProvider(SslProvider.JDK)));

    @AfterAll
    static void closeContexts() {
        SERVER_TLS.close();
    }

    private static SslContext build(SslContextBuilder builder) {
        try {
            return builder.build();
        } catch (javax.net.ssl.SSLException e) {
            throw new AssertionError(e);
        }
    }

    private static SslContextBuilder client() {
        return SslContextBuilder.forClient().trustManager(CERT.certificate()).sslProvider(SslProvider.JDK);
    }

    private static void server(Channel ch) {
        HttpAlpnNegotiationHandler.addServerHandlers(ch, SERVER_TLS, Http2ServerUpgradeHandlerTest::textCodec,
                Http2ServerUpgradeHandlerTest::streamOne, () -> new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(new HttpServerCodec(), new Http1EchoHandler());
                    }
                });
    }

    @Test
    void aClientOfferingH2GetsHttp2() throws Exception {
        try (LoopbackServer server = new LoopbackServer(Http2AlpnLoopbackTest::server);
             SslContext tls = build(HttpAlpnNegotiationHandler.offerH2AndHttp11(client()))) {
            Exchange exchange = new Exchange("/two");
            Channel ch = server.connect(c -> HttpAlpnNegotiationHandler.addClientHandlers(c, tls, "localhost", server.port(),
                    Http2CleartextLoopbackTest::clientCodec, () -> initializer(new Http2StreamFrameToHttpObjectCodec(false, true, null), exchange),
                    () -> initializer(new HttpClientCodec(), exchange)));
            assertEquals("h2 200 GET /two host=localhost\n", exchange.result.get(10, TimeUnit.SECONDS));
            ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClientOfferingOnlyHttp11OrNothingGetsHttp11() throws Exception {
        try (LoopbackServer server = new LoopbackServer(Http2AlpnLoopbackTest::server);
             SslContext http11 = build(client().applicationProtocols("http/1.1"));
             SslContext noAlpn = build(client())) {
            for (SslContext tls : new SslContext[] {http11, noAlpn}) {
                Exchange exchange = new Exchange("/one");
                Channel ch = server.connect(c -> c.pipeline().addLast(tls.newHandler(c.alloc(), "localhost", server.port()),
                        new HttpClientCodec(), exchange));
                String expected = (tls == http11 ? "http/1.1" : "null") + " 200 GET /one host=localhost\n";
                assertEquals(expected, exchange.result.get(10, TimeUnit.SECONDS));
                ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void theHelperRefusesAContextThatDoesNotOfferH2() throws Exception {
        try (SslContext plain = build(SslContextBuilder.forServer(CERT.key(), CERT.certificate()).sslProvider(SslProvider.JDK))) {
            io.rill.channel.embedded.EmbeddedChannel ch = new io.rill.channel.embedded.EmbeddedChannel();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HttpAlpnNegotiationHandler.addServerHandlers(ch, plain, null, null, null));
            assertEquals("the SslContext does not offer h2 by ALPN (it offers []); build it with offerH2AndHttp11(builder)",
                    e.getMessage());
            ch.finishAndReleaseAll();
        }
    }

    private static ChannelInitializer<Channel> initializer(ChannelHandler first, ChannelHandler second) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel c) {
                c.pipeline().addLast(first, second);
            }
        };
    }

    /** Sends one GET once TLS is up (and the pipeline chosen); collects the protocol, status and body. */
    @ChannelHandler.Sharable
    static final class Exchange implements ChannelHandler {
        final CompletableFuture<String> result = new CompletableFuture<>();
        private final String path;
        private final StringBuilder text = new StringBuilder();

        Exchange(String path) {
            this.path = path;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent handshake) {
                if (!handshake.isSuccess()) {
                    result.completeExceptionally(handshake.cause());
                    return;
                }
                text.append(ctx.pipeline().get(SslHandler.class).applicationProtocol()).append(' ');
                FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
                request.headers().set("host", "localhost");
                ctx.channel().writeAndFlush(request);
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpResponse response) {
                text.append(response.status().code()).append(' ');
            }
            if (msg instanceof HttpContent content) {
                text.append(content.content().toString(StandardCharsets.UTF_8));
                if (content instanceof LastHttpContent) {
                    result.complete(text.toString());
                }
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            result.completeExceptionally(cause);
        }
    }
}
