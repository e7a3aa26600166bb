package io.rill.handler.codec.http2.websocketx;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Predicate;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeComplete;
import io.rill.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.util.AsciiString;
import io.rill.util.InternalLogger;

/**
 * WebSocket over HTTP/2 (RFC 8441), server side: the first handler of the pipeline of each stream
 * the client opens ({@link Http2MultiplexHandler}'s stream handler), configured once for both
 * HTTP versions: {@link #of(WebSocketServerProtocolHandler.Builder)} takes the builder of the
 * HTTP/1.1 handler. The connection's {@link Http2FrameCodec} must be built with
 * {@link Http2FrameCodec.Builder#enableConnectProtocol(boolean) enableConnectProtocol(true)}, or
 * clients may not send the extended CONNECT.
 *
 * <pre>{@code
 * WebSocketServerProtocolHandler.Builder ws = WebSocketServerProtocolHandler.builder("/ws");
 * connection.pipeline().addLast(Http2FrameCodec.forServer().enableConnectProtocol(true).build(),
 *         new Http2MultiplexHandler(new ChannelInitializer<>() {
 *             protected void initChannel(Channel stream) {
 *                 stream.pipeline().addLast(Http2WebSocketServerHandler.of(ws), new MyFrameHandler());
 *             }
 *         }));
 * }</pre>
 *
 * <p>A stream whose request is {@code :method CONNECT} with {@code :protocol websocket} for the
 * configured path is checked by {@link WebSocketServerHandshaker#handshakeExtendedConnect}:
 * refused with {@code 400} or {@code 403} and the stream ended, or answered {@code :status 200}
 * (no END_STREAM). Then this handler makes way for the
 * {@linkplain io.rill.handler.codec.http.websocketx.WebSocketHandlers WebSocket handlers}: the
 * {@link WebSocketFrameDecoder} (client frames are still masked, RFC 8441 §5), the encoder, the
 * extensions' handlers and the control handler, over the stream's DATA frames;
 * {@link WebSocketHandshakeComplete} reaches the application, then data frames. A clean close
 * ends the stream with END_STREAM, an abort resets it with CANCEL, and the stream's flow control
 * is the back-pressure: the channel is not writable while the client's window is spent. Any other
 * request passes on untouched, and this handler leaves the pipeline.
 *
 * <p>Sharable and stateless: it only reads the stream's first frame. Every setting of the builder
 * applies but the handshake timeout, since the request is that first frame.
 */
@ChannelHandler.Sharable
public final class Http2WebSocketServerHandler implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(Http2WebSocketServerHandler.class);
    private static final AsciiString CONNECT = AsciiString.cached("CONNECT");
    private static final String WEBSOCKET = "websocket";

    private final Predicate<String> pathMatcher;
    private final WebSocketServerHandshaker handshaker;
    private final WebSocketDecoderConfig decoderConfig;
    private final Duration closeTimeout;

    private Http2WebSocketServerHandler(WebSocketServerProtocolHandler.Builder config) {
        this.pathMatcher = config.pathMatcher();
        this.handshaker = config.newHandshaker();
        this.decoderConfig = config.decoderConfig();
        this.closeTimeout = config.closeTimeout();
    }

    /**
     * The handler for WebSocket over HTTP/2 that {@code config} describes: its path (and prefix),
     * subprotocols, origin check, extensions, payload limits and close timeout, as they are now
     * (later changes to the builder do not reach it). Its handshake timeout does not apply.
     *
     * @param config the configuration of the HTTP/1.1 handler, which may build that one too
     * @return a sharable handler for the pipeline of every HTTP/2 stream the peer opens
     */
    public static Http2WebSocketServerHandler of(WebSocketServerProtocolHandler.Builder config) {
        return new Http2WebSocketServerHandler(config);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Http2HeadersFrame request) || !isWebSocketConnect(request.headers())) {
            ctx.pipeline().remove(ctx.name()); // not ours: the rest of the stream goes straight on
            ctx.fireChannelRead(msg);
            return;
        }
        Http2Headers fields = request.headers();
        String path = fields.path().toString();
        HttpHeaders regular = regularFields(fields);
        WebSocketServerHandshaker.Outcome outcome = request.endStream()
                ? WebSocketServerHandshaker.refuse(HttpResponseStatus.BAD_REQUEST,
                        "the extended CONNECT ended its stream, which was to carry the WebSocket (RFC 8441 §5)")
                : handshaker.handshakeExtendedConnect(regular);
        if (!outcome.accepted()) {
            LOG.debug("{}: WebSocket over HTTP/2 at {} refused with {}: {}", ctx.channel(), path,
                    outcome.response().status(), outcome.reason());
            sendRefusal(ctx, outcome.response());
            return;
        }
        ctx.writeAndFlush(new Http2HeadersFrame(0, toHttp2(outcome.response()), false));
        outcome.response().release();
        WebSocketStreamAdapter.install(ctx, decoderConfig, outcome.extensions(), closeTimeout,
                new WebSocketHandshakeComplete(path, regular, outcome.subprotocol()));
    }

    private boolean isWebSocketConnect(Http2Headers fields) {
        CharSequence protocol = fields.protocol();
        return protocol != null && AsciiString.contentEquals(fields.method(), CONNECT)
                && WEBSOCKET.equalsIgnoreCase(protocol.toString()) && fields.path() != null
                && pathMatcher.test(fields.path().toString());
    }

    /** The refusal's status, fields and text, ending the stream; the stream channel then closes. */
    private static void sendRefusal(ChannelHandlerContext ctx, FullHttpResponse response) {
        ctx.write(new Http2HeadersFrame(0, toHttp2(response), false));
        ctx.writeAndFlush(new Http2DataFrame(0, response.content(), true)) // the frame owns the content now
                .addListener(f -> ctx.close()); // the request's DATA, if any, is not wanted: CANCEL
    }

    /** An HTTP/1.1 response of the handshaker as HTTP/2 fields: lower-case names, no connection-specific ones. */
    private static Http2Headers toHttp2(FullHttpResponse response) {
        Http2Headers fields = new Http2Headers().status(Integer.toString(response.status().code()));
        response.headers().forEach((name, value) -> {
            if (!HttpHeaderNames.CONNECTION.contentEqualsIgnoreCase(name)) {
                fields.add(name.toString().toLowerCase(Locale.ROOT), value);
            }
        });
        return fields;
    }

    /** The request's regular fields, for the handshaker and the application's handshake event. */
    static HttpHeaders regularFields(Http2Headers fields) {
        HttpHeaders regular = new HttpHeaders();
        fields.forEach((name, value) -> {
            if (!Http2Headers.isPseudoHeader(name)) {
                regular.add(name, value);
            }
        });
        return regular;
    }
}
