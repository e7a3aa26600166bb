package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateServerNegotiator;
import io.rill.handler.codec.http2.CleartextHttpProtocolDetector;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.HttpAlpnNegotiationHandler;
import io.rill.handler.codec.http2.websocketx.Http2WebSocketServerHandler;
import io.rill.handler.ssl.SslContext;
import io.rill.util.InternalLogger;

/**
 * A WebSocket echo server at {@code /}: every text, binary and continuation frame goes back as it
 * came (a fragmented message comes back fragmented the same way), pings are answered with pongs,
 * a close frame with the same status. permessage-deflate (RFC 7692) is on, every parameter accepted:
 * a compressed message comes back compressed. {@code --tls} serves {@code wss://} with a self-signed
 * certificate. Other paths get {@code 404}. Try {@code python3 -m websockets ws://127.0.0.1:8080/}.
 *
 * <p>The same port also serves WebSocket over HTTP/2 (RFC 8441): a connection that starts with the
 * HTTP/2 preface (h2c by prior knowledge) or, with {@code --tls}, negotiates {@code h2} by ALPN
 * gets SETTINGS_ENABLE_CONNECT_PROTOCOL and an echo on every stream whose extended CONNECT asks
 * for {@code websocket} at {@code /}, configured by the same builder as the HTTP/1.1 upgrade.
 */
final class WebSocketEchoServer implements Example {

    private static final InternalLogger LOG = InternalLogger.get(WebSocketEchoServer.class);

    private static final ExampleOption TLS = ExampleOption.flag("tls",
            "wss:// with a self-signed certificate made at start-up; h2 or http/1.1 by ALPN");
    private static final ExampleOption MAX_MESSAGE = ExampleOption.number("max-message", "BYTES",
            WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD, 125, 64 << 20,
            "the largest frame and message accepted (close 1009 beyond)");

    @Override
    public String name() {
        return "websocket-echo";
    }

    @Override
    public String description() {
        return "WebSocket echo of text and binary frames at /, over HTTP/1.1 and HTTP/2 (RFC 8441: h2c by prior"
                + " knowledge, h2 by ALPN with --tls) (try: python3 -m websockets ws://HOST:PORT/)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(TLS, MAX_MESSAGE);
    }

    @Override
    public List<String> limits() {
        return List.of("frame and message: --max-message bytes, 64 KiB by default (close 1009 beyond)",
                "compressed message: inflates to at most --max-message bytes (close 1009 beyond)",
                "handshake: a request head within 10 s; close handshake: the peer's close within 10 s of ours",
                "HTTP/2: at most 100 WebSocket streams per connection, each held to a 64 KiB flow-control window",
                "pings: 16 pongs per read at most, then the latest ping's; while the peer does not read, one waits",
                ServerRunner.READING_LIMIT);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        SslContext tls = options.flag(TLS)
                ? HttpAlpnNegotiationHandler.offerH2AndHttp11(ExampleTls.selfSignedServerBuilder(name())).build() : null;
        ServerRunner.run(options, name(), initializer(options.intValue(MAX_MESSAGE), tls));
    }

    /**
     * One connection: with {@code tls} (a context offering h2), TLS and ALPN; without, the first
     * bytes choose between HTTP/2 by prior knowledge and HTTP/1.1. Either way WebSocket is
     * configured once and served over both versions.
     */
    static ChannelInitializer<Channel> initializer(int maxMessage, SslContext tls) {
        WebSocketServerProtocolHandler.Builder ws = WebSocketServerProtocolHandler.builder("/")
                .maxPayload(maxMessage, maxMessage)
                .extensions(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(maxMessage).build());
        Supplier<Http2FrameCodec> codec = () -> Http2FrameCodec.forServer().enableConnectProtocol(true).build();
        ChannelInitializer<Http2StreamChannel> stream = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.pipeline().addLast(Http2WebSocketServerHandler.of(ws), new Echo());
            }
        };
        Supplier<ChannelHandler> http2 = () -> new Http2MultiplexHandler(stream);
        Supplier<ChannelHandler> http1 = () -> new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), ws.build(), new Echo());
            }
        };
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    HttpAlpnNegotiationHandler.addServerHandlers(ch, tls, codec, http2, http1);
                    TlsFailureLog.addBehindTls(ch, "websocket-echo");
                } else {
                    ch.pipeline().addLast(new CleartextHttpProtocolDetector(codec, http2, http1));
                }
            }
        };
    }

    /** Writes each data frame back; flushes once per read batch. */
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof WebSocketFrame frame) {
                ctx.write(frame, ctx.voidPromise()); // ownership passes to the encoder
            } else if (msg instanceof HttpRequest request) {
                ReferenceCountUtil.release(msg);
                notFound(ctx, request);
            } else if (msg instanceof Http2HeadersFrame request) {
                notFound(ctx, request); // an HTTP/2 stream that is not a WebSocket at /
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        private static void notFound(ChannelHandlerContext ctx, HttpRequest request) {
            byte[] body = ("WebSocket only, at /; not " + request.uri() + "\n").getBytes(StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND,
                    Unpooled.wrappedBuffer(body));
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(f -> ctx.close());
        }

        private static void notFound(ChannelHandlerContext ctx, Http2HeadersFrame request) {
            byte[] body = ("WebSocket only, at /; not " + request.headers().method() + " " + request.headers().path()
                    + "\n").getBytes(StandardCharsets.UTF_8);
            ctx.write(new Http2HeadersFrame(0, ServerFields.add(new Http2Headers().status("404")
                    .add("content-type", "text/plain; charset=utf-8")
                    .add("content-length", Integer.toString(body.length))), false));
            // the stream's END_STREAM both ways closes it; a request body still coming is not read
            ctx.writeAndFlush(new Http2DataFrame(0, Unpooled.wrappedBuffer(body), true));
            if (!request.endStream()) {
                ctx.close();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error: {}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }
}
