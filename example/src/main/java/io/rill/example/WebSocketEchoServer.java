package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;

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
import io.rill.handler.ssl.SslContext;
import io.rill.util.InternalLogger;

/**
 * A WebSocket echo server at {@code /}: every text, binary and continuation frame goes back as it
 * came (a fragmented message comes back fragmented the same way), pings are answered with pongs,
 * a close frame with the same status. permessage-deflate (RFC 7692) is on, every parameter accepted:
 * a compressed message comes back compressed. {@code --tls} serves {@code wss://} with a self-signed
 * certificate. Other paths get {@code 404}. Try {@code python3 -m websockets ws://127.0.0.1:8080/}.
 */
final class WebSocketEchoServer implements Example {

    private static final InternalLogger LOG = InternalLogger.get(WebSocketEchoServer.class);

    private static final ExampleOption TLS = ExampleOption.flag("tls",
            "wss:// with a self-signed certificate made at start-up");
    private static final ExampleOption MAX_MESSAGE = ExampleOption.number("max-message", "BYTES",
            WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD, 125, 64 << 20,
            "the largest frame and message accepted (close 1009 beyond)");

    @Override
    public String name() {
        return "websocket-echo";
    }

    @Override
    public String description() {
        return "WebSocket echo of text and binary frames at / (try: python3 -m websockets ws://HOST:PORT/)";
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
                "pings: 16 pongs per read at most, then the latest ping's; while the peer does not read, one waits",
                ServerRunner.READING_LIMIT);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        SslContext tls = options.flag(TLS) ? ExampleTls.selfSignedServerContext(name()) : null;
        ServerRunner.run(options, name(), initializer(options.intValue(MAX_MESSAGE), tls));
    }

    /** One connection: TLS when {@code tls} is set, the HTTP codec, the WebSocket upgrade, the echo. */
    static ChannelInitializer<Channel> initializer(int maxMessage, SslContext tls) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                }
                ch.pipeline().addLast(new HttpServerCodec(),
                        WebSocketServerProtocolHandler.builder("/").maxPayload(maxMessage, maxMessage)
                                .extensions(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(maxMessage).build())
                                .build(),
                        new Echo());
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
