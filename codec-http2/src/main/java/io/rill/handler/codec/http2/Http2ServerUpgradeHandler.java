package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpUtil;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;
import io.rill.handler.ssl.SslHandler;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Promise;

/**
 * The server side of the h2c upgrade (RFC 7540 §3.2; what {@code curl --http2} does on
 * {@code http://}): put it after {@link HttpServerCodec}. A request with {@code Upgrade: h2c},
 * {@code Connection: Upgrade, HTTP2-Settings} and exactly one valid {@code HTTP2-Settings} field
 * (a base64url SETTINGS payload) is answered {@code 101 Switching Protocols}; the handlers from
 * the HTTP/1 codec to the end of the pipeline (this one included) are replaced by the
 * {@link Http2FrameCodec} the supplier makes and the handler the other supplier makes (an
 * {@link Http2MultiplexHandler}, typically); the client's settings take effect; and the request
 * itself becomes stream 1, half-closed remote, its body (gathered here, at most
 * {@code maxBodyBytes}) delivered as stream 1's DATA. An upgrade request with a larger body is
 * answered {@code 413} in HTTP/1.1 and the rest of its body is discarded.
 *
 * <p>Every other request passes through untouched and is served in HTTP/1.1, including one that
 * asks for h2c without a valid {@code HTTP2-Settings} (§3.2.1 forbids the upgrade then) and one
 * pipelined behind requests whose responses are not written yet, and every request on a
 * connection with an {@link SslHandler} (h2c is cleartext only; TLS chooses HTTP/2 by ALPN, see
 * {@link HttpAlpnNegotiationHandler}). An upgrade request that expects
 * {@code 100-continue} is told to continue here, unless its body is announced too large. The
 * handlers before the HTTP/1 codec stay. All methods run on the channel's event loop; one instance
 * per connection.
 */
public final class Http2ServerUpgradeHandler implements ChannelHandler {

    /** The largest body of an upgrade request gathered by default: 64 KiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    private static final InternalLogger LOG = InternalLogger.get(Http2ServerUpgradeHandler.class);
    private static final String H2C = "h2c";

    private final Supplier<Http2FrameCodec> codecFactory;
    private final Supplier<? extends ChannelHandler> http2Handler;
    private final int maxBodyBytes;
    /** The upgrade request whose body is being gathered; null otherwise. */
    private HttpRequest upgrading;
    private Http2Settings clientSettings;
    /** The body gathered so far; owned here, null when no upgrade request is in progress. */
    private ByteBuf body;
    /** The rest of a refused upgrade request's body is being discarded. */
    private boolean discarding;
    /**
     * Requests passed on in HTTP/1.1 whose final response has not been written yet. An upgrade
     * request behind them is served in HTTP/1.1: switching now would send their responses into
     * the HTTP/2 codec.
     */
    private int unanswered;

    /**
     * An upgrade handler that gathers bodies up to {@link #DEFAULT_MAX_BODY_BYTES}.
     *
     * @param codecFactory makes the HTTP/2 codec of an upgraded connection, e.g.
     *        {@code () -> Http2FrameCodec.forServer().build()}
     * @param http2Handler makes the handler placed after the codec, e.g. an
     *        {@link Http2MultiplexHandler} with the per-stream initializer
     */
    public Http2ServerUpgradeHandler(Supplier<Http2FrameCodec> codecFactory,
                                     Supplier<? extends ChannelHandler> http2Handler) {
        this(codecFactory, http2Handler, DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * An upgrade handler.
     *
     * @param codecFactory makes the HTTP/2 codec of an upgraded connection
     * @param http2Handler makes the handler placed after the codec
     * @param maxBodyBytes the largest upgrade request body gathered; larger ones are answered 413
     */
    public Http2ServerUpgradeHandler(Supplier<Http2FrameCodec> codecFactory,
                                     Supplier<? extends ChannelHandler> http2Handler, int maxBodyBytes) {
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes " + maxBodyBytes + " < 0");
        }
        this.codecFactory = codecFactory;
        this.http2Handler = http2Handler;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            // h2c is cleartext only (RFC 7540 §3.2): inside TLS, HTTP/2 is chosen by ALPN instead.
            Http2Settings settings = unanswered == 0 && ctx.pipeline().get(SslHandler.class) == null
                    ? upgradeSettings(request) : null;
            if (settings == null) {
                unanswered++;
                ctx.fireChannelRead(msg);
                return;
            }
            upgrading = request;
            clientSettings = settings;
            body = ctx.alloc().buffer(0, maxBodyBytes);
            if (HttpUtil.getContentLength(request, 0) > maxBodyBytes) {
                refuse(ctx); // announced too large: refused before any of it is read
            } else if (HttpUtil.is100ContinueExpected(request)) {
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            }
            if (!(msg instanceof HttpContent)) {
                return;
            }
        }
        if (!(msg instanceof HttpContent content) || upgrading == null && !discarding) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean last = content instanceof LastHttpContent;
        if (discarding) {
            content.release();
            discarding = !last;
            return;
        }
        if (content.content().readableBytes() > body.maxWritableBytes()) {
            content.release();
            refuse(ctx);
            discarding = !last;
            return;
        }
        body.writeBytes(content.content());
        content.release();
        if (last) {
            upgrade(ctx);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        if (msg instanceof LastHttpContent && unanswered > 0
                && !(msg instanceof HttpResponse response && response.status().isInformational())) {
            unanswered--; // the end of a final response: responses are written in request order
        }
        ctx.write(msg, promise);
    }

    /** The client's settings if {@code request} validly asks for h2c, else null (it is served in HTTP/1.1). */
    private static Http2Settings upgradeSettings(HttpRequest request) {
        HttpHeaders headers = request.headers();
        if (!headers.containsValue(HttpHeaderNames.UPGRADE, H2C, true)
                || !headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderNames.UPGRADE, true)
                || !headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderNames.HTTP2_SETTINGS, true)) {
            return null;
        }
        List<String> values = headers.getAll(HttpHeaderNames.HTTP2_SETTINGS);
        if (values.size() != 1) {
            return null; // §3.2.1: none or several, no upgrade
        }
        try {
            return decodeSettings(values.get(0));
        } catch (IllegalArgumentException | Http2Exception e) {
            LOG.debug("h2c upgrade not taken, HTTP2-Settings '{}' is invalid: {}", values.get(0), e.getMessage());
            return null;
        }
    }

    /** The SETTINGS payload of HTTP2-Settings: base64url (padding optional), six bytes per parameter. */
    static Http2Settings decodeSettings(String value) throws Http2Exception {
        byte[] payload = Base64.getUrlDecoder().decode(value.strip());
        if (payload.length % 6 != 0) {
            throw new IllegalArgumentException("a SETTINGS payload of " + payload.length + " bytes is not a multiple of 6");
        }
        Http2Settings settings = new Http2Settings();
        for (int i = 0; i < payload.length; i += 6) {
            int id = (payload[i] & 0xff) << 8 | payload[i + 1] & 0xff;
            long v = (payload[i + 2] & 0xffL) << 24 | (payload[i + 3] & 0xff) << 16
                    | (payload[i + 4] & 0xff) << 8 | payload[i + 5] & 0xff;
            settings.put(id, v);
        }
        return settings;
    }

    /** 413 in HTTP/1.1 for an upgrade request whose body is too large; the connection stays HTTP/1.1. */
    private void refuse(ChannelHandlerContext ctx) {
        long announced = HttpUtil.getContentLength(upgrading, -1);
        clear();
        discarding = true;
        FullHttpResponse tooLarge = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.CONTENT_TOO_LARGE, Unpooled.EMPTY_BUFFER);
        tooLarge.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        LOG.debug("h2c upgrade request on {} refused: its body ({} bytes announced) exceeds {} bytes",
                ctx.channel(), announced, maxBodyBytes);
        ctx.writeAndFlush(tooLarge);
    }

    /** 101, the HTTP/1 handlers out, the HTTP/2 ones in, the request as stream 1. */
    private void upgrade(ChannelHandlerContext ctx) throws Exception {
        HttpRequest request = upgrading;
        ByteBuf content = body;
        Http2Settings settings = clientSettings;
        body = null;
        clear();
        ChannelPipeline pipeline = ctx.pipeline();
        ChannelHandlerContext http1 = pipeline.context(HttpServerCodec.class);
        if (http1 == null) {
            content.release();
            throw new IllegalStateException("Http2ServerUpgradeHandler needs an HttpServerCodec before it");
        }
        Http2Headers fields = Http1HeaderTranslation.fromRequest(request, "http");
        fields.remove(HttpHeaderNames.EXPECT); // answered here already
        FullHttpResponse switching = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.SWITCHING_PROTOCOLS, Unpooled.EMPTY_BUFFER);
        switching.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE).set(HttpHeaderNames.UPGRADE, H2C);
        ctx.writeAndFlush(switching); // encoded by the HTTP/1 codec before the codec's SETTINGS go out (§3.2)

        Http2FrameCodec codec = codecFactory.get();
        List<String> http1Handlers = handlersFrom(pipeline, http1.name());
        pipeline.addAfter(http1.name(), null, codec);
        ChannelHandlerContext codecCtx = pipeline.context(codec);
        for (String name : http1Handlers.subList(1, http1Handlers.size())) {
            pipeline.remove(name);
        }
        pipeline.addAfter(codecCtx.name(), null, http2Handler.get());
        // Last: the HTTP/1 codec passes bytes it read past the request on to the HTTP/2 codec.
        pipeline.remove(http1.name());
        codec.upgradedFromHttp1(settings, fields, content);
    }

    /** The names of the handlers from {@code first} to the end of the pipeline. */
    private static List<String> handlersFrom(ChannelPipeline pipeline, String first) {
        List<String> names = pipeline.names();
        List<String> from = new ArrayList<>(names.subList(names.indexOf(first), names.size()));
        from.removeIf(name -> pipeline.context(name) == null); // the tail, if names() lists it
        return from;
    }

    private void clear() {
        upgrading = null;
        clientSettings = null;
        if (body != null) {
            body.release();
            body = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        clear();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        clear();
        ctx.fireChannelInactive();
    }
}
