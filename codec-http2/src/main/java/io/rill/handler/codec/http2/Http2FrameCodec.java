package io.rill.handler.codec.http2;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.socket.DuplexChannel;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.AbstractScheduledEventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.Ticker;

/**
 * An HTTP/2 connection (RFC 9113) as a handler: bytes in and out below it, frames as messages
 * above it. It sends and checks the connection preface and SETTINGS, answers PING, keeps every
 * stream's state and both directions of flow control, and turns protocol errors into RST_STREAM
 * (stream errors) or GOAWAY and the close (connection errors).
 *
 * <p>Above it, the application reads {@link Http2HeadersFrame}, {@link Http2DataFrame},
 * {@link Http2ResetFrame} and {@link Http2GoAwayFrame}, and writes the first three plus
 * {@link Http2WindowUpdateFrame}. Received content counts against the windows until the
 * application writes an {@link Http2WindowUpdateFrame} saying it consumed it, so a slow consumer
 * slows the sender instead of filling memory. Sent content waits for the peer's windows in
 * per-stream queues, and everything one flush sends is coalesced into few buffers.
 *
 * <p>Closing the channel ends the connection gracefully: GOAWAY with the last stream the peer
 * opened, then the close once the open streams finish (or after a bound). After the peer's end of
 * stream only the streams it finished sending are still answered; the others are reset.
 *
 * <p>All methods run on the channel's event loop. Not sharable: one instance per connection.
 */
public final class Http2FrameCodec extends ByteToMessageDecoder {

    private static final InternalLogger LOG = InternalLogger.get(Http2FrameCodec.class);

    final Http2Config config;
    private final Http2FrameReader reader;
    private final Http2FrameWriter writer;
    /** The receive side and the stream table: the reader's frames go here. */
    private final Http2Connection connection;
    /** The send side: the application's frames go here, and every frame leaves through its buffer. */
    private final Http2Sender sender;
    /** The graceful close: GOAWAY, the open streams finish, then the close. */
    private final Http2Shutdown shutdown;
    /** A server's limits on its client's pace; null on a client or with no timeouts. */
    private final Http2Timeouts timeouts;
    private ChannelHandlerContext ctx;
    /** The loop's clock, which tests move by hand; the system's when the loop has none. */
    private Ticker ticker = System::nanoTime;
    private boolean started;
    private boolean prefaceReceived;
    private boolean settingsReceived;
    /** Set once the connection is being torn down after a connection error; nothing more is read. */
    private boolean failed;

    /**
     * A builder of the server side of a connection: it expects the client preface.
     *
     * @return a builder with safe defaults (100 concurrent streams, 64 KiB stream windows, a 1 MiB
     *         connection window, an 8 KiB header list, a 4 KiB HPACK table, 10 s to acknowledge SETTINGS,
     *         4 MiB of content held per connection and {@link Http2ServerBudget#DEFAULT} for all of them)
     */
    public static Builder forServer() {
        return new Builder(true);
    }

    /**
     * A builder of the client side of a connection: it sends the preface, and its streams are odd.
     *
     * @return a builder with the same defaults as {@link #forServer()}, push disabled
     */
    public static Builder forClient() {
        return new Builder(false);
    }

    Http2FrameCodec(Http2Config config, FieldBlockDecoder fieldDecoder, FieldBlockEncoder fieldEncoder) {
        this.config = config;
        this.writer = new Http2FrameWriter(fieldEncoder);
        // A field block may be a little larger than the list it decodes to (literal overhead).
        this.reader = new Http2FrameReader(fieldDecoder, io.rill.buffer.ByteBufAllocator.DEFAULT,
                (long) config.maxHeaderListSize() + 4096);
        this.prefaceReceived = !config.server();
        HttpServerTimeouts limits = config.timeouts();
        this.timeouts = config.server() && (limits.idle() != null || limits.header() != null || limits.body() != null)
                ? new Http2Timeouts(limits, new TimeoutExpiry()) : null;
        Http2MemoryBudget budget = new Http2MemoryBudget(config.maxHeldBytes(),
                config.server() ? config.serverBudget() : null, this::serverBudgetExceeded);
        this.connection = new Http2Connection(config, writer, budget, timeouts, this::connectionError);
        this.sender = connection.sender();
        this.shutdown = connection.shutdown();
    }

    /** Where the server's timeouts act: the reader, this codec's close and connection error, the receive side. */
    private final class TimeoutExpiry implements Http2Timeouts.Expiry {

        @Override
        public int unfinishedFieldBlock() {
            return reader.fieldBlockStreamId();
        }

        @Override
        public void idle(long idleNanos) {
            LOG.debug("Closing {}: no stream for {} s (the idle timeout)", ctx.channel(), TimeUnit.NANOSECONDS.toSeconds(idleNanos));
            ctx.channel().close();
        }

        @Override
        public void connectionError(Http2Exception e) {
            Http2FrameCodec.this.connectionError(e);
        }

        @Override
        public void bodiesDue(long now, long bodyNanos) {
            connection.expireBodies(now, bodyNanos);
        }
    }

    /**
     * Numbers the next stream this endpoint opens, for a caller that must know the id before its
     * first HEADERS goes out (a child channel). The stream opens when HEADERS is written with that
     * id; ids must be used in the order they were reserved. Event loop only.
     *
     * @return the id: odd on a client, even on a server
     * @throws Http2Exception when the ids are exhausted (2^31-1 reached); open a new connection
     */
    public int reserveStreamId() throws Http2Exception {
        return connection.reserveStreamId();
    }

    /**
     * Whether content written to the stream now would go out without waiting behind more than
     * {@link Http2StreamWritabilityChanged#HIGH_WATER_MARK} bytes for the peer's windows; changes
     * are announced with {@link Http2StreamWritabilityChanged} events. Event loop only.
     *
     * @param streamId the stream
     * @return {@code false} also when the stream is closed for writing or unknown
     */
    public boolean isStreamWritable(int streamId) {
        return sender.isStreamWritable(streamId);
    }

    /**
     * Whether the peer allows extended CONNECT (RFC 8441 §3): it sent SETTINGS_ENABLE_CONNECT_PROTOCOL
     * with the value 1. Meaningful once {@link #peerSettingsReceived()} is done. Event loop only.
     *
     * @return {@code true} if a request with {@code :protocol} may be sent
     */
    public boolean peerAllowsExtendedConnect() {
        return connection.peerAllowsExtendedConnect();
    }

    /**
     * How many streams this side may have open at once: the peer's SETTINGS_MAX_CONCURRENT_STREAMS,
     * {@link Long#MAX_VALUE} until it sends one (no limit, RFC 9113 §6.5.2). A stream opened beyond
     * it is refused. Meaningful once {@link #peerSettingsReceived()} is done. Event loop only.
     *
     * @return the peer's current limit
     */
    public long peerMaxConcurrentStreams() {
        return connection.peerMaxConcurrentStreams();
    }

    /**
     * Completes once the peer's first SETTINGS frame has taken effect, so that what it allows
     * ({@link #peerAllowsExtendedConnect()}) is known; fails if the connection ends first. Event loop only.
     *
     * @return the future, the same one on every call
     */
    public Future<Void> peerSettingsReceived() {
        return connection.peerSettingsReceived();
    }

    // ---------------------------------------------------------------- h2c upgrade (RFC 7540 §3.2)

    /** The SETTINGS this endpoint sends first; a client upgrading from HTTP/1.1 sends them in HTTP2-Settings. */
    Http2Settings localSettings() {
        return config.localSettings();
    }

    /**
     * A server that answered an HTTP/1.1 upgrade request with 101: the client's HTTP2-Settings
     * take effect (acknowledged by the 101 itself, not by a SETTINGS ACK), and the request becomes
     * stream 1, half-closed remote, passed up as HEADERS and, when it had a body, one DATA frame
     * that ends the stream (not flow controlled: it came as HTTP/1.1). Call once the handlers
     * above this codec are in place.
     *
     * @param body the request's content; ownership passes to this method
     */
    void upgradedFromHttp1(Http2Settings peerSettings, Http2Headers request, ByteBuf body) throws Http2Exception {
        try {
            connection.applyPeerSettings(peerSettings);
        } catch (Http2Exception e) {
            body.release();
            throw e;
        }
        connection.openUpgradeStream();
        boolean hasBody = body.isReadable();
        ctx.fireChannelRead(new Http2HeadersFrame(1, request, !hasBody));
        if (hasBody) {
            ctx.fireChannelRead(new Http2DataFrame(1, body, 0, true));
        } else {
            body.release();
        }
        ctx.fireChannelReadComplete();
    }

    /** A client whose HTTP/1.1 upgrade request was answered 101: that request is stream 1, half-closed local. */
    void upgradedToHttp2() {
        connection.openUpgradeStream();
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        if (ctx.executor() instanceof AbstractScheduledEventExecutor loop) {
            ticker = loop.ticker();
        }
        connection.attach(ctx, ticker);
        if (timeouts != null) {
            timeouts.attach(ctx, ticker);
        }
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start();
        ctx.fireChannelActive();
    }

    /** Sends our preface: the client's magic octets (client only) and our SETTINGS (§3.4). */
    private void start() {
        if (started) {
            return;
        }
        started = true;
        ByteBuf out = sender.buffer();
        if (!config.server()) {
            Http2Frames.writePreface(out);
        }
        writer.writeSettings(out, config.localSettings());
        int raise = config.connectionWindowSize() - Http2Settings.DEFAULT_WINDOW_SIZE;
        if (raise > 0) {
            writer.writeWindowUpdate(out, 0, raise);
        }
        sender.flush();
        if (timeouts != null) {
            timeouts.start();
        }
        connection.awaitSettingsAck(config.settingsAckTimeoutMillis());
    }

    private void stopTimeouts() {
        if (timeouts != null) {
            timeouts.stop();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            super.channelInactive(ctx);
        } finally {
            closeAll(new java.nio.channels.ClosedChannelException(), "the connection closed before the peer's SETTINGS arrived");
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        closeAll(new IllegalStateException("Http2FrameCodec removed from the pipeline"),
                "Http2FrameCodec removed before the peer's SETTINGS arrived");
    }

    /** The connection is over for this codec: timers stop, every stream ends, queued writes fail with {@code cause}. */
    private void closeAll(Throwable cause, String peerSettingsLost) {
        connection.settingsAcknowledged();
        stopTimeouts();
        reader.close();
        connection.closeAll(cause);
        sender.closeAll(cause);
        connection.failPeerSettings(peerSettingsLost);
    }

    // ---------------------------------------------------------------- inbound

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        connection.inbound(out);
        try {
            if (!prefaceReceived && !readPreface(in)) {
                return;
            }
            while (!failed) {
                if (!settingsReceived && !checkFirstFrame(in)) {
                    return;
                }
                try {
                    if (!reader.readFrame(in, connection)) {
                        return;
                    }
                } catch (HeaderListTooLargeException e) {
                    connection.headerListTooLarge(e);
                    connection.flood.reset(ticker.nanoTime());
                } catch (Http2Exception e) {
                    if (!e.isStreamError()) {
                        throw e;
                    }
                    connection.streamErrorFromPeer(e);
                    connection.flood.reset(ticker.nanoTime()); // "MadeYouReset": resets the peer provokes count too
                }
            }
        } catch (Http2Exception e) {
            in.skipBytes(in.readableBytes());
            connectionError(e);
        } finally {
            connection.inbound(null);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        sender.flush(); // SETTINGS and PING acknowledgements, resets, window updates
        super.channelReadComplete(ctx);
    }

    /** GOAWAY with the error, then the close; nothing more is read. */
    private void connectionError(Http2Exception e) {
        if (failed) {
            return;
        }
        failed = true;
        LOG.debug("HTTP/2 connection error on {}: {} {}", ctx.channel(), e.error(), e.getMessage());
        shutdown.goAway(e.error(), e.getMessage());
        sender.flush();
        ctx.close();
    }

    /** Checks the client's 24 magic octets; a mismatch is a connection error (§3.4). */
    private boolean readPreface(ByteBuf in) throws Http2Exception {
        int matched = Http2Frames.matchPreface(in);
        if (matched < 0) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "the connection did not start with the HTTP/2 client preface");
        }
        if (matched < Http2Frames.prefaceLength()) {
            return false;
        }
        in.skipBytes(matched);
        prefaceReceived = true;
        return true;
    }

    /** The first frame the peer sends must be SETTINGS without ACK (§3.4). */
    private boolean checkFirstFrame(ByteBuf in) throws Http2Exception {
        if (in.readableBytes() < Http2Frames.HEADER_LENGTH) {
            return false;
        }
        int type = in.getUnsignedByte(in.readerIndex() + 3);
        int flags = in.getUnsignedByte(in.readerIndex() + 4);
        if (type != Http2Frames.SETTINGS || (flags & Http2Frames.FLAG_ACK) != 0) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "the first frame was " + Http2Frames.typeName(type) + ", not SETTINGS (RFC 9113 §3.4)");
        }
        settingsReceived = true;
        return true;
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
        try {
            if (msg instanceof Http2DataFrame data) {
                sender.writeData(data, promise);
            } else if (msg instanceof Http2HeadersFrame headers) {
                connection.writeHeaders(headers, promise);
            } else if (msg instanceof Http2WindowUpdateFrame update) {
                connection.consumed(update.streamId(), update.bytes());
                promise.trySuccess(null);
            } else if (msg instanceof Http2ResetFrame reset) {
                connection.resetStream(reset.streamId(), reset.error(), "reset by the application");
                promise.trySuccess(null);
            } else {
                ReferenceCountUtil.release(msg);
                promise.tryFailure(new IllegalArgumentException("Http2FrameCodec writes HTTP/2 stream frames, not "
                        + (msg == null ? "null" : msg.getClass().getName())));
            }
        } catch (Http2Exception e) {
            promise.tryFailure(e);
            if (!e.isStreamError()) {
                connectionError(e);
            }
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        sender.flush();
    }

    /** Content waits in the streams' queues while the socket's is full; it goes on once the socket drained. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            sender.drainAll();
            sender.flush();
        }
        ctx.fireChannelWritabilityChanged();
    }

    // ---------------------------------------------------------------- memory budgets

    /**
     * The server's budget chose this connection, the greediest, to close: any thread may say so,
     * the close happens on the connection's event loop.
     */
    private void serverBudgetExceeded(long held, long serverHeld, long serverMax) {
        ctx.executor().execute(() -> {
            if (failed || !ctx.channel().isActive()) {
                return;
            }
            String why = "closing the connection holding the most content (" + held + " bytes): all HTTP/2 connections hold "
                    + serverHeld + " bytes, over the server's budget of " + serverMax + " (Http2ServerBudget)";
            String more = config.serverBudget().logLine(ticker.nanoTime());
            if (more != null) {
                LOG.warn("{}: {}{}", ctx.channel(), why, more);
            }
            connectionError(Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, why));
        });
    }

    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) {
        if (failed || !ctx.channel().isActive()) {
            ctx.close(promise);
            return;
        }
        if (ctx.channel() instanceof DuplexChannel duplex && duplex.isInputShutdown()) {
            // The transport's close at the peer's end of stream, or one after it.
            connection.resetStreamsThatCannotFinish();
            shutdown.inputEnded(promise);
            return;
        }
        shutdown.shutdownGracefully(promise);
    }

    /**
     * Configures an {@link Http2FrameCodec}. Every limit is both advertised in our SETTINGS and
     * enforced; the defaults are what an edge server exposed to the Internet should use.
     */
    public static final class Builder {
        private final boolean server;
        private int maxConcurrentStreams = 100;
        private int initialWindowSize = Http2Settings.DEFAULT_WINDOW_SIZE;
        private int connectionWindowSize = 1 << 20;
        private int maxHeaderListSize = 8192;
        private int headerTableSize = Http2Settings.DEFAULT_HEADER_TABLE_SIZE;
        private int encoderTableSizeCap = Http2Settings.DEFAULT_HEADER_TABLE_SIZE;
        private long settingsAckTimeoutMillis = 10_000;
        private boolean enableConnectProtocol;
        private HttpServerTimeouts timeouts;
        /** Null until set: then the larger of 4 MiB and the connection window. */
        private Long maxHeldBytes;
        private Http2ServerBudget serverBudget = Http2ServerBudget.DEFAULT;

        Builder(boolean server) {
            this.server = server;
        }

        /**
         * SETTINGS_MAX_CONCURRENT_STREAMS: streams the peer may have open at once; more are refused.
         *
         * @param streams at least 1
         * @return this
         */
        public Builder maxConcurrentStreams(int streams) {
            this.maxConcurrentStreams = positive(streams, "maxConcurrentStreams");
            return this;
        }

        /**
         * SETTINGS_INITIAL_WINDOW_SIZE: how much content the peer may send on a stream before the
         * application consumes some; the most one stream can make us hold.
         *
         * @param bytes 1 to 2^31-1
         * @return this
         */
        public Builder initialWindowSize(int bytes) {
            this.initialWindowSize = positive(bytes, "initialWindowSize");
            return this;
        }

        /**
         * The connection window: how much content the peer may send on all streams together before
         * the application consumes some; the most one connection can make us hold.
         *
         * @param bytes 65,535 to 2^31-1
         * @return this
         */
        public Builder connectionWindowSize(int bytes) {
            if (bytes < Http2Settings.DEFAULT_WINDOW_SIZE) {
                throw new IllegalArgumentException("connectionWindowSize: " + bytes + " (expected: >= 65535)");
            }
            this.connectionWindowSize = bytes;
            return this;
        }

        /**
         * SETTINGS_MAX_HEADER_LIST_SIZE, enforced while decoding: a larger field section gets 431
         * (server) or a reset, and one more than a quarter larger ends the connection.
         *
         * @param bytes at least 1, counted as RFC 9113 §6.5.2 says (name + value + 32 per field)
         * @return this
         */
        public Builder maxHeaderListSize(int bytes) {
            this.maxHeaderListSize = positive(bytes, "maxHeaderListSize");
            return this;
        }

        /**
         * The largest HPACK dynamic table our encoder uses, whatever the peer allows (a peer that
         * allows 4 GiB does not get it).
         *
         * @param bytes 0 or more
         * @return this
         */
        public Builder encoderTableSizeCap(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("encoderTableSizeCap: " + bytes + " (expected: >= 0)");
            }
            this.encoderTableSizeCap = bytes;
            return this;
        }

        /**
         * How long the peer has to acknowledge our SETTINGS before the connection ends with
         * SETTINGS_TIMEOUT.
         *
         * @param millis at least 1
         * @return this
         */
        public Builder settingsAckTimeoutMillis(long millis) {
            if (millis <= 0) {
                throw new IllegalArgumentException("settingsAckTimeoutMillis: " + millis + " (expected: > 0)");
            }
            this.settingsAckTimeoutMillis = millis;
            return this;
        }

        /**
         * Extended CONNECT (RFC 8441): a server that enables it advertises
         * SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 and accepts requests with {@code :protocol}, such as
         * WebSocket over HTTP/2; without it such requests are malformed. Off by default; a client
         * ignores it (it reads the server's setting instead).
         *
         * @param enable whether to allow extended CONNECT
         * @return this
         */
        public Builder enableConnectProtocol(boolean enable) {
            this.enableConnectProtocol = enable;
            return this;
        }

        /**
         * The limits a server puts on its client's pace, as {@link HttpServerTimeouts} does for
         * HTTP/1.1: a connection with no open stream is closed after {@code idle} (GOAWAY NO_ERROR);
         * a field block must be whole within {@code header} (else GOAWAY ENHANCE_YOUR_CALM); a
         * request's content must arrive at {@code minBodyRate} bytes a second without a stall of
         * {@code body}, or the stream gets {@code 408} (or RST_STREAM CANCEL once a response began).
         * Time while the server keeps a window shut does not count. Limits hold to within a quarter
         * of the shortest. A server's default is {@link HttpServerTimeouts#DEFAULT}; a client ignores this.
         *
         * @param timeouts the limits; {@link HttpServerTimeouts#NONE} for none
         * @return this
         */
        public Builder timeouts(HttpServerTimeouts timeouts) {
            this.timeouts = java.util.Objects.requireNonNull(timeouts, "timeouts");
            return this;
        }

        /**
         * The content one connection may hold (docs/security-cases.md, cases H2-23 to H2-25): request
         * content received whose credit the application has not returned (in the codec, an
         * aggregator, a message being assembled) plus response content queued behind the peer's
         * windows or an unwritable socket. Over it the connection grants no more window (the peer's
         * sends stop, as flow control intends), its streams are not writable
         * ({@link Http2StreamWritabilityChanged}) and new streams are refused ({@code REFUSED_STREAM}),
         * until it is back under half. A message limit of the application's is then a limit per
         * message within this budget, never multiplied by the streams. Must be at least the
         * connection window.
         *
         * @param bytes at least 65,535; by default 4 MiB, or the connection window if that is larger
         * @return this
         */
        public Builder maxHeldBytes(long bytes) {
            if (bytes < Http2Settings.DEFAULT_WINDOW_SIZE) {
                throw new IllegalArgumentException("maxHeldBytes: " + bytes + " (expected: >= 65535)");
            }
            this.maxHeldBytes = bytes;
            return this;
        }

        /**
         * The budget a server's connections share ({@link Http2ServerBudget}): over it the
         * connection holding the most is closed with GOAWAY {@code ENHANCE_YOUR_CALM}. A client
         * ignores it.
         *
         * @param budget the shared budget; {@link Http2ServerBudget#DEFAULT} unless given
         * @return this
         */
        public Builder serverBudget(Http2ServerBudget budget) {
            this.serverBudget = java.util.Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * A new codec for one connection.
         *
         * @return the codec; add it to the connection's pipeline
         * @throws IllegalArgumentException if the connection window exceeds {@code maxHeldBytes}
         */
        public Http2FrameCodec build() {
            long heldBytes = maxHeldBytes != null ? maxHeldBytes
                    : Math.max(Http2Config.DEFAULT_MAX_HELD_BYTES, connectionWindowSize);
            if (connectionWindowSize > heldBytes) {
                throw new IllegalArgumentException("connectionWindowSize " + connectionWindowSize
                        + " exceeds maxHeldBytes " + heldBytes + ": the peer could make the connection hold more than its budget");
            }
            HpackDecoder decoder = new HpackDecoder(maxHeaderListSize, headerTableSize);
            HpackEncoder encoder = new HpackEncoder(HpackEncoder.SensitivityPolicy.DEFAULT, encoderTableSizeCap, true);
            FieldBlockEncoder fieldEncoder = new FieldBlockEncoder() {
                @Override
                public void encode(Http2Headers headers, ByteBuf out) {
                    encoder.encode(headers, out);
                }

                @Override
                public void maxTableSize(long size) {
                    encoder.setMaxHeaderTableSize(size);
                }
            };
            return new Http2FrameCodec(new Http2Config(server, maxConcurrentStreams, initialWindowSize,
                    connectionWindowSize, maxHeaderListSize, headerTableSize, settingsAckTimeoutMillis,
                    enableConnectProtocol, timeouts != null ? timeouts
                            : server ? HttpServerTimeouts.DEFAULT : HttpServerTimeouts.NONE,
                    heldBytes, server ? serverBudget : null),
                    decoder::decode, fieldEncoder);
        }

        private static int positive(int value, String name) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
            }
            return value;
        }
    }
}
