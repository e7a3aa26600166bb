package io.rill.handler.codec.http2.websocketx;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeComplete;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.rill.handler.codec.http.websocketx.internal.ClientHandshakeWait;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.Http2StreamChannelBootstrap;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * WebSocket over HTTP/2 (RFC 8441), client side: opens a WebSocket on a new stream of an HTTP/2
 * connection (a pipeline with {@link Http2FrameCodec} and an
 * {@link io.rill.handler.codec.http2.Http2MultiplexHandler}).
 *
 * <pre>{@code
 * Http2StreamChannel ws = Http2WebSocketClientHandler.of(URI.create("wss://example.com/chat"))
 *         .open(connection, new MyFrameHandler()).sync().getNow();
 * ws.writeAndFlush(new TextWebSocketFrame("hello"));
 * }</pre>
 *
 * <p>{@link #open} first waits for the server's SETTINGS: a server that did not send
 * SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 does not take extended CONNECT (RFC 8441 §3), and the open
 * fails with a {@link WebSocketHandshakeException} saying so (use HTTP/1.1 there). Otherwise a
 * stream is opened with this handler and the application's after it; it sends an extended
 * CONNECT with the {@link WebSocketClientHandshaker}'s offers and, on {@code :status 200}, makes
 * way for the frame decoder (expecting unmasked frames), the masking encoder (RFC 8441 §5 keeps
 * the masking), the extensions' handlers and the control handler; {@link WebSocketHandshakeComplete}
 * reaches the application and the future of {@link #open} completes with the stream's channel.
 * Any other answer, a reset, or no answer within the handshake timeout fails it and closes the stream.
 *
 * <p>One instance per stream; all methods but {@link #open} run on the event loop.
 */
public final class Http2WebSocketClientHandler implements ChannelHandler {

    private final WebSocketClientHandshaker handshaker;
    private final WebSocketDecoderConfig decoderConfig;
    private final Duration closeTimeout;
    private final ClientHandshakeWait wait;

    /**
     * @param handshaker makes the request's offers and checks the answer's choices
     * @param maxFramePayload the largest frame accepted from the server (larger: close 1009)
     * @param maxMessagePayload the largest message accepted from the server
     * @param handshakeTimeout how long to wait for the server's answer
     * @param closeTimeout how long to wait for the server's close frame after ours, and then for its END_STREAM
     */
    public Http2WebSocketClientHandler(WebSocketClientHandshaker handshaker, int maxFramePayload,
            int maxMessagePayload, Duration handshakeTimeout, Duration closeTimeout) {
        this.handshaker = handshaker;
        this.decoderConfig = new WebSocketDecoderConfig(maxFramePayload, maxMessagePayload, false, 0);
        this.wait = new ClientHandshakeWait(handshakeTimeout, "the extended CONNECT");
        this.closeTimeout = closeTimeout;
    }

    /**
     * A handler for {@code uri} without subprotocols or extensions, with 64 KiB limits and 10 s timeouts.
     *
     * @param uri a {@code ws:} or {@code wss:} URI: its path is the request's {@code :path}
     * @return a new handler
     */
    public static Http2WebSocketClientHandler of(URI uri) {
        return new Http2WebSocketClientHandler(new WebSocketClientHandshaker(uri, List.of(), new HttpHeaders(), null,
                WebSocketExtensionNegotiator.NONE), WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD,
                WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD, Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    /**
     * Opens the WebSocket on a new stream of {@code connection}, with this handler and then
     * {@code application} in the stream's pipeline. May be called from any thread, once.
     *
     * @param connection an active HTTP/2 client connection
     * @param application the handler that reads and writes the WebSocket's frames
     * @return completes with the stream's channel once the handshake succeeded; fails with a
     *         {@link WebSocketHandshakeException} if the server does not allow extended CONNECT,
     *         refuses the request or does not answer in time
     */
    public Future<Http2StreamChannel> open(Channel connection, ChannelHandler application) {
        Promise<Http2StreamChannel> opened = connection.eventLoop().newPromise();
        connection.eventLoop().execute(() -> {
            Http2FrameCodec codec = connection.pipeline().get(Http2FrameCodec.class);
            if (codec == null) {
                opened.tryFailure(new IllegalStateException("no Http2FrameCodec in the pipeline of " + connection));
                return;
            }
            codec.peerSettingsReceived().addListener(f -> {
                if (!f.isSuccess()) {
                    opened.tryFailure(new WebSocketHandshakeException("the connection ended before the server's"
                            + " SETTINGS arrived: " + f.cause().getMessage()));
                } else if (!codec.peerAllowsExtendedConnect()) {
                    opened.tryFailure(new WebSocketHandshakeException("the server did not send"
                            + " SETTINGS_ENABLE_CONNECT_PROTOCOL = 1, so it takes no WebSocket over HTTP/2"
                            + " (RFC 8441 §3); use HTTP/1.1 for " + handshaker.uri()));
                } else {
                    openStream(connection, application, opened);
                }
            });
        });
        return opened;
    }

    private void openStream(Channel connection, ChannelHandler application, Promise<Http2StreamChannel> opened) {
        Http2WebSocketClientHandler self = this;
        new Http2StreamChannelBootstrap(connection).handler(new ChannelHandler() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                // this one-off initializer swaps itself for the handshake handler and the application
                ctx.pipeline().addAfter(ctx.name(), null, application);
                ctx.pipeline().addAfter(ctx.name(), null, self);
                ctx.pipeline().remove(ctx.name());
            }
        }).open().addListener(f -> {
            if (!f.isSuccess()) {
                opened.tryFailure(f.cause());
                return;
            }
            Http2StreamChannel stream = (Http2StreamChannel) f.getNow();
            wait.future().addListener(h -> {
                if (h.isSuccess()) {
                    opened.trySuccess(stream);
                } else {
                    opened.tryFailure(h.cause());
                }
            });
        });
    }

    /** @return succeeds once the stream speaks WebSocket; fails if the handshake does not complete */
    public Future<Void> handshakeFuture() {
        return wait.future();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        wait.added(ctx, this::extendedConnect);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        wait.request(ctx, this::extendedConnect);
        ctx.fireChannelActive();
    }

    private Object extendedConnect() {
        return new Http2HeadersFrame(0, extendedConnect(handshaker), false);
    }

    /**
     * The fields of an RFC 8441 extended CONNECT for {@code handshaker}'s URI and offers:
     * {@code :method CONNECT}, {@code :protocol websocket}, {@code :scheme} {@code https} for
     * {@code wss:} ({@code http} otherwise), {@code :authority}, {@code :path},
     * {@code sec-websocket-version: 13}, the subprotocols, the extension offer and the extra
     * fields; no key (RFC 8441 §5). Field names are lower case, as HTTP/2 requires.
     */
    static Http2Headers extendedConnect(WebSocketClientHandshaker handshaker) {
        boolean secure = "wss".equalsIgnoreCase(handshaker.uri().getScheme());
        Http2Headers fields = new Http2Headers()
                .method("CONNECT").set(Http2Headers.PROTOCOL, "websocket")
                .scheme(secure ? "https" : "http")
                .authority(handshaker.authority())
                .path(handshaker.requestTarget())
                .set("sec-websocket-version", "13");
        if (!handshaker.subprotocols().isEmpty()) {
            fields.set("sec-websocket-protocol", String.join(", ", handshaker.subprotocols()));
        }
        if (handshaker.extensionOffer() != null) {
            fields.set("sec-websocket-extensions", handshaker.extensionOffer());
        }
        if (handshaker.extraHeaders() != null) {
            handshaker.extraHeaders().forEach((name, value) -> fields.add(name.toString().toLowerCase(Locale.ROOT), value));
        }
        return fields;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Http2HeadersFrame response)) {
            ReferenceCountUtil.release(msg); // the body of a refusal: the status said it all
            return;
        }
        CharSequence status = response.headers().status();
        if (status != null && status.length() == 3 && status.charAt(0) == '1') {
            return; // an interim answer; the real one follows
        }
        if (status == null || !"200".contentEquals(status) || response.endStream()) {
            wait.fail(ctx, new WebSocketHandshakeException("the server answered the extended CONNECT with :status "
                    + status + (response.endStream() ? " and ended the stream" : "") + ", not 200"));
            return;
        }
        HttpHeaders fields = Http2WebSocketServerHandler.regularFields(response.headers());
        WebSocketClientHandshaker.Agreement agreement;
        try {
            agreement = handshaker.checkExtendedConnect(fields);
        } catch (WebSocketHandshakeException e) {
            wait.fail(ctx, e);
            return;
        }
        wait.cancelTimer();
        WebSocketStreamAdapter.install(ctx, decoderConfig, agreement.extensions(), closeTimeout,
                new WebSocketHandshakeComplete(handshaker.uri().getRawPath(), fields, agreement.subprotocol()));
        wait.succeed();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2ResetFrame reset) {
            wait.fail(ctx, new WebSocketHandshakeException("the server reset the stream with " + reset.error()
                    + " instead of answering the extended CONNECT"));
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        wait.fail(ctx, new WebSocketHandshakeException("stream closed before the WebSocket handshake completed"));
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        wait.cancelTimer();
    }
}
