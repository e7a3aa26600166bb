package io.rill.handler.codec.http.websocketx;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.LastHttpContent;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Turns an HTTP/1.1 server connection into a WebSocket one. Put it after {@link HttpServerCodec}
 * (and an optional aggregator), before the application:
 *
 * <pre>{@code
 * pipeline.addLast(new HttpServerCodec(),
 *         WebSocketServerProtocolHandler.builder("/ws").subprotocols("chat").build(),
 *         new MyFrameHandler());
 * }</pre>
 *
 * <p>A request for the configured path (or, with {@link Builder#pathPrefix}, any path below it) is
 * checked by a {@link WebSocketServerHandshaker}: refused with {@code 400}, {@code 403} or
 * {@code 426} and the connection closed after the answer, or answered {@code 101}. Then the
 * {@link HttpServerCodec} and this handler are replaced by a {@link WebSocketFrameDecoder} with the
 * configured limits, the {@link WebSocketFrameEncoder}, the accepted extensions' handlers and a
 * handler that answers pings, completes the close handshake (closing after
 * {@link Builder#closeTimeout} at the latest once we sent a close frame) and drops pongs; a
 * {@link WebSocketHandshakeComplete} event reaches the application, then data frames (text,
 * binary, continuation), which it owns and must release. Requests for other paths pass on untouched.
 *
 * <p><b>Handlers between the codec and this one.</b> Rill's own HTTP message handlers there
 * ({@link io.rill.handler.codec.http.HttpObjectAggregator}, the content compressor and
 * decompressor, the keep-alive, expect-continue and CORS handlers, the request recorder) are
 * removed with the codec: nothing they handle comes any more. Every other handler is left where it
 * is, as Netty leaves it: it sees the handshake event and the frames go through it, so it should
 * pass on what it does not handle, and the application removes it when it is done with it, for
 * example an index-page handler removed on {@link WebSocketHandshakeComplete}:
 *
 * <pre>{@code
 * pipeline.addLast(new HttpServerCodec(), new HttpObjectAggregator(65536), new IndexPageHandler(),
 *         WebSocketServerProtocolHandler.builder("/ws").build(), new FrameHandler());
 * // in FrameHandler.userEventTriggered:
 * if (evt instanceof WebSocketHandshakeComplete) {
 *     ctx.pipeline().remove(IndexPageHandler.class); // still there: Rill does not remove it
 * }
 * }</pre>
 *
 * <p>A connection that sends no request head within {@link Builder#handshakeTimeout} is closed.
 * One instance per connection; all methods run on the event loop.
 */
public final class WebSocketServerProtocolHandler implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(WebSocketServerProtocolHandler.class);

    private final Builder config;
    private final WebSocketServerHandshaker handshaker;
    private final Predicate<String> pathMatcher;
    /** The request being passed on belongs to another path: its body follows it to the application. */
    private boolean passingThrough;
    /** The upgrade request was refused: what is left of it is dropped until the connection closes. */
    private boolean refused;
    private ScheduledFuture<?> handshakeTimer;

    private WebSocketServerProtocolHandler(Builder config) {
        this.config = config;
        this.handshaker = config.newHandshaker();
        this.pathMatcher = config.pathMatcher();
    }

    /**
     * @param path the request path that upgrades, e.g. {@code /ws}
     * @return a builder with the defaults: exact path, no subprotocol, 64 KiB frames and messages,
     *         any origin, no extension, 10 s handshake and close timeouts
     */
    public static Builder builder(String path) {
        return new Builder(path);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            startHandshakeTimer(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        startHandshakeTimer(ctx);
        ctx.fireChannelActive();
    }

    private void startHandshakeTimer(ChannelHandlerContext ctx) {
        if (handshakeTimer == null) {
            handshakeTimer = ctx.executor().schedule(() -> {
                LOG.debug("{}: no request within the WebSocket handshake timeout of {}", ctx.channel(),
                        config.handshakeTimeout);
                ctx.close();
            }, config.handshakeTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request && !passingThrough) {
            cancelTimer();
            if (pathMatcher.test(request.uri())) {
                upgradeOrRefuse(ctx, request);
                return;
            }
            passingThrough = true;
        }
        if (passingThrough && msg instanceof LastHttpContent) {
            passingThrough = false;
        }
        ctx.fireChannelRead(msg);
    }

    /** Whether {@code uri}'s path is {@code path}, or below it with {@code prefix}. */
    private static boolean matches(String path, boolean prefix, String uri) {
        int query = uri.indexOf('?');
        String requested = query < 0 ? uri : uri.substring(0, query);
        if (requested.equals(path)) {
            return true;
        }
        if (!prefix) {
            return false;
        }
        String base = path.endsWith("/") ? path : path + "/";
        return requested.startsWith(base);
    }

    private void upgradeOrRefuse(ChannelHandlerContext ctx, HttpRequest request) {
        WebSocketServerHandshaker.Outcome outcome;
        try {
            outcome = handshaker.handshake(request);
        } finally {
            ReferenceCountUtil.release(request); // a FullHttpRequest when an aggregator comes first
        }
        if (!outcome.accepted()) {
            refused = true;
            LOG.debug("{}: WebSocket upgrade of {} refused with {}: {}", ctx.channel(), request.uri(),
                    outcome.response().status(), outcome.reason());
            ctx.writeAndFlush(outcome.response()).addListener(f -> ctx.close());
            return;
        }
        ChannelHandlerContext http1 = ctx.pipeline().context(HttpServerCodec.class);
        if (http1 == null) {
            outcome.response().release();
            throw new IllegalStateException("WebSocketServerProtocolHandler needs an HttpServerCodec before it");
        }
        ctx.writeAndFlush(outcome.response()); // encoded by the HTTP codec, still in place
        WebSocketUpgrade.apply(ctx, http1, config.decoderConfig(), outcome.extensions(), config.closeTimeout,
                new WebSocketHandshakeComplete(request.uri(), request.headers(), outcome.subprotocol()));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelTimer();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimer();
    }

    private void cancelTimer() {
        if (handshakeTimer != null) {
            handshakeTimer.cancel(false);
        }
    }

    /**
     * The configuration of a {@link WebSocketServerProtocolHandler}; a builder makes any number of
     * handlers. Its getters ({@link #pathMatcher()}, {@link #newHandshaker()}, {@link #decoderConfig()},
     * {@link #closeTimeout()}) give the same settings to a handler for another transport, such as
     * WebSocket over HTTP/2: each returns a value fixed when it is called.
     */
    public static final class Builder {
        private final String path;
        private boolean prefix;
        private List<String> subprotocols = List.of();
        private int maxFramePayload = WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD;
        private int maxMessagePayload = WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD;
        private Predicate<String> originCheck = origin -> true;
        private WebSocketExtensionNegotiator extensions = WebSocketExtensionNegotiator.NONE;
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private Duration closeTimeout = Duration.ofSeconds(10);

        private Builder(String path) {
            if (path == null || !path.startsWith("/")) {
                throw new IllegalArgumentException("path must start with '/': " + path);
            }
            this.path = path;
        }

        /**
         * @param prefix true to upgrade every path below the configured one too
         * @return this builder
         */
        public Builder pathPrefix(boolean prefix) {
            this.prefix = prefix;
            return this;
        }

        /**
         * @param names the subprotocols this server speaks; the client's first offered match is chosen
         * @return this builder
         */
        public Builder subprotocols(String... names) {
            this.subprotocols = List.of(names);
            return this;
        }

        /**
         * @param frame the largest frame payload accepted (larger: close 1009)
         * @param message the largest message accepted, fragments summed (larger: close 1009)
         * @return this builder
         */
        public Builder maxPayload(int frame, int message) {
            new WebSocketDecoderConfig(frame, message, true, 0); // validates
            this.maxFramePayload = frame;
            this.maxMessagePayload = message;
            return this;
        }

        /**
         * @param check true to accept a request with this {@code Origin} (null when absent); false answers 403
         * @return this builder
         */
        public Builder originCheck(Predicate<String> check) {
            this.originCheck = check;
            return this;
        }

        /**
         * @param negotiator picks the extensions to accept among the client's offers
         * @return this builder
         */
        public Builder extensions(WebSocketExtensionNegotiator negotiator) {
            this.extensions = negotiator;
            return this;
        }

        /**
         * @param timeout how long a new connection may take to send its request head
         * @return this builder
         */
        public Builder handshakeTimeout(Duration timeout) {
            this.handshakeTimeout = timeout;
            return this;
        }

        /**
         * @param timeout how long to wait for the peer's close frame after sending ours
         * @return this builder
         */
        public Builder closeTimeout(Duration timeout) {
            this.closeTimeout = timeout;
            return this;
        }

        /** @return a new handler for one connection, with the settings as they are now */
        public WebSocketServerProtocolHandler build() {
            return new WebSocketServerProtocolHandler(copy()); // later changes to this builder do not reach it
        }

        /**
         * Which request targets upgrade: the configured path, and with {@link #pathPrefix} every
         * path below it; a query is ignored.
         *
         * @return a test of a request target, fixed to the path settings as they are now
         */
        public Predicate<String> pathMatcher() {
            String p = path;
            boolean below = prefix;
            return uri -> matches(p, below, uri);
        }

        /** @return a handshaker with the subprotocols, origin check and extensions as they are now */
        public WebSocketServerHandshaker newHandshaker() {
            return new WebSocketServerHandshaker(subprotocols, originCheck, extensions);
        }

        /** @return the frame decoder's settings: the payload limits as they are now, masked frames expected */
        public WebSocketDecoderConfig decoderConfig() {
            return new WebSocketDecoderConfig(maxFramePayload, maxMessagePayload, true, 0);
        }

        /** @return how long to wait for the peer's close frame after sending ours */
        public Duration closeTimeout() {
            return closeTimeout;
        }

        private Builder copy() {
            Builder c = new Builder(path);
            c.prefix = prefix;
            c.subprotocols = subprotocols;
            c.maxFramePayload = maxFramePayload;
            c.maxMessagePayload = maxMessagePayload;
            c.originCheck = originCheck;
            c.extensions = extensions;
            c.handshakeTimeout = handshakeTimeout;
            c.closeTimeout = closeTimeout;
            return c;
        }
    }
}
