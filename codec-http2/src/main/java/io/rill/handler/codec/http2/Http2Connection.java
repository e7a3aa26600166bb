package io.rill.handler.codec.http2;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;
import io.rill.util.concurrent.Ticker;

/**
 * The receive side of one HTTP/2 connection for {@link Http2FrameCodec}, and the table of its
 * streams (RFC 9113 §5.1): it receives the frames the reader parsed, checks them against the
 * streams' states and the receive windows, opens and closes streams, and takes the peer's settings
 * into effect. The frames the application writes leave through {@link Http2Sender}; GOAWAY and the
 * close are {@link Http2Shutdown}'s.
 *
 * <p>Flow control, receiving: a DATA frame takes its length from the stream's and the
 * connection's receive windows; the credit comes back (WINDOW_UPDATE) only once the application
 * has consumed the bytes and at least half a window is owed, so a peer cannot make us buffer more
 * than the windows we advertised.
 *
 * <p>Its port: the channel's context (attached once the codec is in a pipeline) and the loop's
 * clock, the frame writer with the send side's buffer for the frames it answers with, the memory
 * budget, the server's timeouts (or null), and the codec's connection error.
 */
final class Http2Connection implements Http2FrameListener, Http2Sender.Listener {

    /** Named after the codec, as the codec logged these lines itself. */
    private static final InternalLogger LOG = InternalLogger.get(Http2FrameCodec.class);
    /** How many closed streams we remember, to tell "closed" (STREAM_CLOSED) from "never opened". */
    private static final int REMEMBERED_CLOSED = 256;
    /** The answer to a request whose content did not arrive in time; never modified. */
    private static final Http2Headers TIMED_OUT = new Http2Headers().status("408").add("content-length", "0");

    private final Http2Config config;
    private final Http2FrameWriter writer;
    private final IntMap<Http2Stream> streams = new IntMap<>();
    /** Recently closed streams: id to whether we reset it (frames then still in flight are ignored). */
    private final RecentlyClosedStreams closed = new RecentlyClosedStreams(REMEMBERED_CLOSED);

    final Http2FloodGuard flood = new Http2FloodGuard(200, TimeUnit.SECONDS.toNanos(30));
    /** What this connection holds, against its budget and the server's. */
    private final Http2MemoryBudget budget;
    private final Consumer<Http2Exception> connectionError;
    private final Http2Sender sender;
    private final Http2Shutdown shutdown;
    /** A server's limits on its client's pace; null on a client or with no timeouts. */
    private final Http2Timeouts timeouts;
    private ChannelHandlerContext ctx;
    private Ticker ticker;

    /** Where decoded frames go during a read; null outside one. */
    private List<Object> inbound;

    private int lastPeerStreamId;
    private int nextLocalStreamId;
    /** The highest stream this endpoint opened (sent HEADERS on). */
    private int lastLocalOpened;
    private int connectionReceiveWindow;
    private int connectionConsumed;
    private long peerMaxConcurrentStreams = Long.MAX_VALUE;
    private int peerOpenedActive;
    private int localOpenedActive;

    private boolean goAwayReceived;
    private int goAwayLastStreamId;

    /** Fails the connection unless the peer acknowledges our SETTINGS in time; null when nothing waits. */
    private ScheduledFuture<?> settingsAckTimeout;
    /** The peer's SETTINGS_ENABLE_CONNECT_PROTOCOL: once 1, it may not go back to 0 (RFC 8441 §3). */
    private boolean peerConnectProtocol;
    /** Completed once the peer's first SETTINGS took effect; made on first demand. */
    private Promise<Void> peerSettings;
    private boolean peerSettingsApplied;

    /**
     * @param connectionError ends the connection at once (GOAWAY with the error, the close, nothing
     *        more read): for timers that find the peer too slow
     */
    Http2Connection(Http2Config config, Http2FrameWriter writer, Http2MemoryBudget budget, Http2Timeouts timeouts,
            Consumer<Http2Exception> connectionError) {
        this.config = config;
        this.writer = writer;
        this.budget = budget;
        this.timeouts = timeouts;
        this.connectionError = connectionError;
        this.sender = new Http2Sender(writer, budget, flood, streams, this, connectionError);
        this.shutdown = new Http2Shutdown(config.server(), writer, sender, streams, () -> lastPeerStreamId);
        this.connectionReceiveWindow = config.connectionWindowSize();
        this.nextLocalStreamId = config.server() ? 2 : 1;
    }

    /** The codec is in a pipeline: its context and the loop's clock, for this side and the parts it made. */
    void attach(ChannelHandlerContext ctx, Ticker ticker) {
        this.ctx = ctx;
        this.ticker = ticker;
        sender.attach(ctx, ticker);
        shutdown.attach(ctx);
    }

    Http2Sender sender() {
        return sender;
    }

    Http2Shutdown shutdown() {
        return shutdown;
    }

    void inbound(List<Object> out) {
        inbound = out;
    }

    // ---------------------------------------------------------------- frames received

    @Override
    public void onData(int streamId, ByteBuf data, int flowControlled, boolean endStream) throws Http2Exception {
        if (flowControlled > connectionReceiveWindow) {
            throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR, "DATA of " + flowControlled
                    + " bytes on stream " + streamId + " exceeds the connection window of " + connectionReceiveWindow);
        }
        connectionReceiveWindow -= flowControlled;
        if (budget.received(flowControlled)) {
            budgetCrossed();
        }
        if (flowControlled == 0 && !endStream) {
            flood.cheapFrame("empty DATA");
        } else {
            flood.content(flowControlled);
        }
        Http2Stream stream = streams.get(streamId);
        if (stream == null || !stream.remoteOpen) {
            consumed(0, flowControlled); // nobody will consume it: the connection gets its credit back
            if (stream == null) {
                unknownStream(streamId, "DATA");
                return;
            }
            throw Http2Exception.streamError(streamId, Http2Error.STREAM_CLOSED,
                    "DATA on stream " + streamId + " after the peer ended it");
        }
        if (!stream.headersReceived) {
            consumed(0, flowControlled);
            throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "DATA before HEADERS on stream " + streamId);
        }
        if (flowControlled > stream.receiveWindow) {
            consumed(0, flowControlled);
            throw Http2Exception.streamError(streamId, Http2Error.FLOW_CONTROL_ERROR, "DATA of " + flowControlled
                    + " bytes exceeds stream " + streamId + "'s window of " + stream.receiveWindow);
        }
        stream.receiveWindow -= flowControlled;
        if (stream.bodyDeadline != 0) {
            timeouts.bodyReceived(stream, flowControlled);
        }
        int padding = flowControlled - data.readableBytes();
        if (padding > 0) {
            consumed(streamId, padding); // padding is nobody's to consume
        }
        stream.receivedContentLength += data.readableBytes();
        if (stream.expectedContentLength >= 0 && (stream.receivedContentLength > stream.expectedContentLength
                || endStream && stream.receivedContentLength != stream.expectedContentLength)) {
            consumed(streamId, data.readableBytes());
            throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "stream " + streamId
                    + " sent " + stream.receivedContentLength + " bytes of content, content-length says "
                    + stream.expectedContentLength + " (RFC 9113 §8.1.1)");
        }
        if (endStream) {
            remoteEnded(stream);
        }
        inbound.add(new Http2DataFrame(streamId, ownCopy(data), data.readableBytes(), endStream));
    }

    /**
     * The payload in a buffer of its own size. A slice would pin the whole read buffer it came in
     * (up to 64 KiB, or a cumulation twice the read) for as long as the application holds the
     * content: measured at twice the content held, and more for a small frame held long. A copy
     * makes what the budget counts what is really held (docs/security-cases.md, case H2-25).
     */
    private ByteBuf ownCopy(ByteBuf data) {
        int n = data.readableBytes();
        if (n == 0) {
            return io.rill.buffer.Unpooled.EMPTY_BUFFER;
        }
        ByteBuf copy = ctx.alloc().buffer(n, n);
        copy.writeBytes(data, data.readerIndex(), n);
        return copy;
    }

    @Override
    public void onHeaders(int streamId, Http2Headers headers, boolean endStream) throws Http2Exception {
        Http2Stream stream = streams.get(streamId);
        if (stream == null) {
            stream = openRemote(streamId);
            if (stream == null) {
                return; // after our GOAWAY: ignored, the peer may retry elsewhere
            }
        } else if (!stream.remoteOpen) {
            throw Http2Exception.streamError(streamId, Http2Error.STREAM_CLOSED,
                    "HEADERS on stream " + streamId + " after the peer ended it");
        }
        boolean trailers = stream.headersReceived;
        if (trailers) {
            if (!endStream) {
                throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR,
                        "a second HEADERS on stream " + streamId + " without END_STREAM (trailers must end the stream)");
            }
            Http2HeaderChecks.validateTrailers(streamId, headers);
        } else if (config.server()) {
            Http2HeaderChecks.validateRequest(streamId, headers);
            Http2HeaderChecks.checkExtendedConnectAllowed(streamId, headers, config.enableConnectProtocol());
            stream.headersReceived = true;
            if (!endStream && timeouts != null && !Http2Messages.isConnect(headers)) { // a tunnel has no body to time
                timeouts.bodyExpected(stream);
            }
        } else {
            Http2HeaderChecks.validateResponse(streamId, headers);
            // 1xx heads are informational: the final head is still to come (§8.1).
            stream.headersReceived = !Http2Messages.isInformational(headers);
        }
        if (!trailers) {
            // A response to HEAD, a 304 and a 204 carry no content whatever content-length says (§8.1.1).
            long announced = Http2Messages.contentLength(streamId, headers);
            stream.expectedContentLength = config.server() || !(stream.requestWasHead || Http2Messages.isBodiless(headers)) ? announced : -1;
            if (endStream && stream.expectedContentLength > 0) {
                throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "stream " + streamId
                        + " ended with no content, content-length says " + stream.expectedContentLength);
            }
        } else if (stream.expectedContentLength >= 0 && stream.receivedContentLength != stream.expectedContentLength) {
            throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "stream " + streamId + " sent "
                    + stream.receivedContentLength + " bytes of content, content-length says " + stream.expectedContentLength);
        }
        if (endStream) {
            remoteEnded(stream);
        }
        inbound.add(new Http2HeadersFrame(streamId, headers, endStream));
    }

    @Override
    public void onPriority(int streamId) throws Http2Exception {
        // Parsed and ignored: RFC 9113 §5.3.2 deprecates the priority signals.
        flood.cheapFrame("PRIORITY");
    }

    @Override
    public void onRstStream(int streamId, Http2Error error) throws Http2Exception {
        flood.cheapFrame("RST_STREAM");
        Http2Stream stream = streams.get(streamId);
        if (stream == null) {
            if (isIdle(streamId)) {
                throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "RST_STREAM on idle stream " + streamId);
            }
            return; // already closed
        }
        close(stream, false, new Http2Exception(error, streamId, "stream " + streamId + " reset by the peer: " + error));
        if (!isLocal(streamId)) {
            flood.reset(ticker.nanoTime()); // the peer opened it and took it back: rapid reset counts these
        }
        inbound.add(new Http2ResetFrame(streamId, error));
    }

    @Override
    public void onSettings(Http2Settings settings) throws Http2Exception {
        flood.cheapFrame("SETTINGS");
        applyPeerSettings(settings);
        writer.writeSettingsAck(sender.buffer());
        sender.drainAll();
        peerSettingsApplied = true;
        if (peerSettings != null) {
            peerSettings.trySuccess(null);
        }
    }

    /** Takes the peer's settings into effect; no acknowledgement (the caller sends one if due). */
    void applyPeerSettings(Http2Settings settings) throws Http2Exception {
        if (settings.has(Http2Settings.INITIAL_WINDOW_SIZE)) {
            sender.peerInitialWindow(settings.get(Http2Settings.INITIAL_WINDOW_SIZE, 0));
        }
        if (settings.has(Http2Settings.MAX_FRAME_SIZE)) {
            writer.maxFrameSize((int) settings.get(Http2Settings.MAX_FRAME_SIZE, 0));
        }
        if (settings.has(Http2Settings.MAX_CONCURRENT_STREAMS)) {
            peerMaxConcurrentStreams = settings.get(Http2Settings.MAX_CONCURRENT_STREAMS, 0);
        }
        if (settings.has(Http2Settings.HEADER_TABLE_SIZE)) {
            writer.maxHeaderTableSize(settings.get(Http2Settings.HEADER_TABLE_SIZE, 0));
        }
        if (settings.has(Http2Settings.ENABLE_CONNECT_PROTOCOL)) {
            boolean enabled = settings.get(Http2Settings.ENABLE_CONNECT_PROTOCOL, 0) == 1;
            if (peerConnectProtocol && !enabled) {
                // RFC 8441 §3: a sender that allowed extended CONNECT must not withdraw it; requests may be on their way.
                throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                        "SETTINGS_ENABLE_CONNECT_PROTOCOL went from 1 to 0 (RFC 8441 §3)");
            }
            peerConnectProtocol = enabled;
        }
    }

    /**
     * Whether the peer allows extended CONNECT (RFC 8441 §3), as {@link Http2FrameCodec#peerAllowsExtendedConnect()}
     * tells.
     */
    /** The peer's SETTINGS_MAX_CONCURRENT_STREAMS: Long.MAX_VALUE until it sends one (RFC 9113 §6.5.2: unlimited). */
    long peerMaxConcurrentStreams() {
        return peerMaxConcurrentStreams;
    }

    boolean peerAllowsExtendedConnect() {
        return peerConnectProtocol;
    }

    /** Completes once the peer's first SETTINGS took effect, as {@link Http2FrameCodec#peerSettingsReceived()} tells. */
    Future<Void> peerSettingsReceived() {
        if (peerSettings == null) {
            if (ctx == null) {
                throw new IllegalStateException("not added to a pipeline yet");
            }
            peerSettings = ctx.executor().newPromise();
            if (peerSettingsApplied) {
                peerSettings.setSuccess(null);
            }
        }
        return peerSettings;
    }

    /** The connection ended before the peer's SETTINGS arrived: whoever waits for them learns {@code why}. */
    void failPeerSettings(String why) {
        if (peerSettings != null) {
            peerSettings.tryFailure(new IllegalStateException(why));
        }
    }

    /** Our SETTINGS went out: unless the peer acknowledges them within {@code millis}, the connection fails. */
    void awaitSettingsAck(long millis) {
        settingsAckTimeout = ctx.executor().schedule(() -> connectionError.accept(Http2Exception.connectionError(
                Http2Error.SETTINGS_TIMEOUT, "SETTINGS not acknowledged within " + millis + " ms")),
                millis, TimeUnit.MILLISECONDS);
    }

    /** Our SETTINGS were acknowledged (or need no longer be): whether they were waiting for it. */
    boolean settingsAcknowledged() {
        if (settingsAckTimeout == null) {
            return false;
        }
        settingsAckTimeout.cancel(false);
        settingsAckTimeout = null;
        return true;
    }

    /**
     * Opens stream 1 for an HTTP/1.1 request that upgraded the connection (RFC 7540 §3.2): on a
     * server the peer's request, already complete (half-closed remote); on a client our request,
     * already sent (half-closed local).
     */
    void openUpgradeStream() {
        Http2Stream stream = Http2Stream.open(1, sender.peerInitialWindow(), config.initialWindowSize());
        streams.put(1, stream);
        if (config.server()) {
            stream.headersReceived = true;
            stream.remoteOpen = false;
            lastPeerStreamId = 1;
            peerOpenedActive++;
            flood.streamOpened();
            if (timeouts != null) {
                timeouts.streamsOpen(true);
            }
        } else {
            stream.headersSent = true;
            stream.localOpen = false;
            nextLocalStreamId = 3;
            lastLocalOpened = 1;
            localOpenedActive++;
        }
    }

    @Override
    public void onSettingsAck() throws Http2Exception {
        if (!settingsAcknowledged()) {
            flood.cheapFrame("a SETTINGS ACK for no SETTINGS of ours");
        }
    }

    @Override
    public void onPing(long data, boolean ack) throws Http2Exception {
        flood.cheapFrame("PING");
        if (!ack) {
            writer.writePing(sender.buffer(), data, true);
        } else {
            shutdown.pingAcknowledged(data);
        }
    }

    @Override
    public void onGoAway(int lastStreamId, Http2Error error, ByteBuf debugData) throws Http2Exception {
        flood.cheapFrame("GOAWAY"); // a peer says it once or twice; more is a flood
        if (goAwayReceived && lastStreamId > goAwayLastStreamId) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "a second GOAWAY raised the last stream from "
                    + goAwayLastStreamId + " to " + lastStreamId + " (RFC 9113 §6.8: it must not increase)");
        }
        goAwayReceived = true;
        goAwayLastStreamId = lastStreamId;
        String debug = debugData.toString(debugData.readerIndex(), Math.min(debugData.readableBytes(), 256),
                java.nio.charset.StandardCharsets.US_ASCII);
        // Our streams above lastStreamId were not processed: they end here, retryable.
        for (Http2Stream stream : streams.values()) {
            if (isLocal(stream.id) && stream.id > lastStreamId) {
                close(stream, false, new Http2Exception(Http2Error.REFUSED_STREAM, stream.id,
                        "stream " + stream.id + " was not processed: the peer sent GOAWAY"));
            }
        }
        inbound.add(new Http2GoAwayFrame(lastStreamId, error, debug));
    }

    @Override
    public void onWindowUpdate(int streamId, int increment) throws Http2Exception {
        flood.cheapFrame("WINDOW_UPDATE"); // not stall progress: only content that goes out is
        if (streamId == 0) {
            sender.connectionWindowUpdate(increment);
            return;
        }
        Http2Stream stream = streams.get(streamId);
        if (stream == null) {
            if (isIdle(streamId)) {
                throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + streamId);
            }
            return;
        }
        sender.streamWindowUpdate(stream, increment);
    }

    @Override
    public void onUnknownFrame(int type, int streamId, int length) throws Http2Exception {
        // Ignored, as RFC 9113 §4.1 and §5.5 require; but not for free.
        flood.cheapFrame("an unknown frame type");
    }

    /** Opens a stream the peer started with HEADERS, after checking its id and our limits. */
    private Http2Stream openRemote(int streamId) throws Http2Exception {
        if (isLocal(streamId)) {
            unknownStream(streamId, "HEADERS");
        }
        if (!config.server()) {
            // A server opens streams only with PUSH_PROMISE, and this client disabled push (§8.4).
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "HEADERS on stream " + streamId + ", which the server may not open (push is disabled)");
        }
        if (streamId <= lastPeerStreamId) {
            if (closed.contains(streamId)) {
                throw Http2Exception.connectionError(Http2Error.STREAM_CLOSED, "HEADERS on closed stream " + streamId);
            }
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "HEADERS opening stream " + streamId
                    + ", not above the last stream the peer opened (" + lastPeerStreamId + ")");
        }
        lastPeerStreamId = streamId;
        if (shutdown.goAwaySent()) {
            return null;
        }
        if (peerOpenedActive >= config.maxConcurrentStreams()) {
            closed.remember(streamId, true);
            throw Http2Exception.streamError(streamId, Http2Error.REFUSED_STREAM, "stream " + streamId
                    + " exceeds SETTINGS_MAX_CONCURRENT_STREAMS " + config.maxConcurrentStreams());
        }
        if (budget.isOver()) {
            closed.remember(streamId, true);
            throw Http2Exception.streamError(streamId, Http2Error.REFUSED_STREAM, "stream " + streamId
                    + " refused: the connection holds " + budget.held() + " bytes, over its budget (maxHeldBytes "
                    + budget.limit() + ")");
        }
        if (budget.refusesForServer()) {
            closed.remember(streamId, true);
            throw Http2Exception.streamError(streamId, Http2Error.REFUSED_STREAM, "stream " + streamId
                    + " refused: the connection holds " + budget.held() + " bytes and the server's connections hold "
                    + budget.server().heldBytes() + ", over its budget of " + budget.server().maxBytes()
                    + " (Http2ServerBudget)");
        }
        Http2Stream stream = Http2Stream.open(streamId, sender.peerInitialWindow(), config.initialWindowSize());
        streams.put(streamId, stream);
        peerOpenedActive++;
        flood.streamOpened();
        if (timeouts != null) {
            timeouts.streamsOpen(true);
        }
        return stream;
    }

    /** A frame for a stream not in the map: idle is a connection error, closed a stream error or nothing. */
    private void unknownStream(int streamId, String frame) throws Http2Exception {
        if (isIdle(streamId)) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, frame + " on idle stream " + streamId);
        }
        Boolean resetByUs = closed.resetByUs(streamId);
        if (resetByUs == null || !resetByUs) {
            throw Http2Exception.streamError(streamId, Http2Error.STREAM_CLOSED, frame + " on closed stream " + streamId);
        }
        // We reset it: frames the peer sent before it learnt that are ignored (§5.4.2).
    }

    private boolean isIdle(int streamId) {
        return isLocal(streamId) ? streamId >= nextLocalStreamId : streamId > lastPeerStreamId;
    }

    private boolean isLocal(int streamId) {
        return (streamId & 1) == (config.server() ? 0 : 1);
    }

    private void remoteEnded(Http2Stream stream) {
        stream.remoteOpen = false;
        stream.bodyDeadline = 0;
        if (stream.isClosed()) {
            close(stream, false, null);
        }
    }

    // ---------------------------------------------------------------- streams this endpoint opens

    /**
     * HEADERS the application wrote: stream 0 opens the next stream, a reserved id opens that
     * stream, any other must be open for writing. The frame itself leaves through the send side.
     */
    void writeHeaders(Http2HeadersFrame frame, Promise<Void> promise) throws Http2Exception {
        Http2Stream stream;
        if (frame.streamId() == 0) {
            stream = openLocal(reserveStreamId());
        } else if (isLocal(frame.streamId()) && !streams.containsKey(frame.streamId())
                && !closed.contains(frame.streamId()) && frame.streamId() < nextLocalStreamId) {
            stream = openLocal(frame.streamId()); // reserved with reserveStreamId()
        } else {
            stream = streams.get(frame.streamId());
            if (stream == null || !stream.localOpen) {
                promise.tryFailure(new IllegalStateException("stream " + frame.streamId() + " is closed for writing"));
                return;
            }
        }
        if (!config.server() && !stream.headersSent && "HEAD".contentEquals(String.valueOf(frame.headers().method()))) {
            stream.requestWasHead = true;
        }
        sender.writeHeaders(stream, frame, promise);
    }

    private Http2Stream openLocal(int id) throws Http2Exception {
        if (goAwayReceived || shutdown.goAwaySent()) {
            closed.remember(id, true);
            throw new Http2Exception(Http2Error.REFUSED_STREAM, id, "no new streams after GOAWAY");
        }
        if (localOpenedActive >= peerMaxConcurrentStreams) {
            closed.remember(id, true);
            throw new Http2Exception(Http2Error.REFUSED_STREAM, id,
                    "the peer allows only " + peerMaxConcurrentStreams + " concurrent streams");
        }
        if (id <= lastLocalOpened) {
            // Reserved ids must be used in order: the peer would take a lower one as a protocol error (§5.1.1).
            throw new Http2Exception(Http2Error.REFUSED_STREAM, id, "stream " + id + " opened after stream "
                    + lastLocalOpened + "; reserved stream ids must be used in the order they were reserved");
        }
        lastLocalOpened = id;
        Http2Stream stream = Http2Stream.open(id, sender.peerInitialWindow(), config.initialWindowSize());
        stream.writable = !budget.isOver();
        streams.put(stream.id, stream);
        localOpenedActive++;
        return stream;
    }

    /** Numbers the next stream this endpoint opens; the first HEADERS written on it opens it. */
    int reserveStreamId() throws Http2Exception {
        if (nextLocalStreamId < 0) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "stream identifiers exhausted");
        }
        int id = nextLocalStreamId;
        nextLocalStreamId += 2;
        return id;
    }

    @Override
    public void sendEnded(Http2Stream stream) {
        stream.localOpen = false;
        if (stream.isClosed() && !stream.hasPending()) {
            close(stream, false, null);
        }
    }

    // ---------------------------------------------------------------- memory budget

    /**
     * The connection went over its budget or came back under half of it: its streams' writability
     * follows, and withheld connection credit goes back once it is under. The streams are copied
     * first: a handler may open or end streams when told.
     */
    @Override
    public void budgetCrossed() {
        if (budget.isOver()) {
            LOG.debug("{} holds {} bytes of content, over its budget (maxHeldBytes {}): no more window granted,"
                    + " streams not writable, new streams refused until it is back under half", ctx.channel(),
                    budget.held(), budget.limit());
        }
        for (Http2Stream stream : new java.util.ArrayList<>(streams.values())) {
            if (stream.localOpen) {
                sender.updateWritability(stream);
            }
        }
        if (!budget.isOver()) {
            returnConnectionCredit();
        }
    }

    // ---------------------------------------------------------------- receive windows

    /** The application consumed {@code bytes} of {@code streamId}'s content: return credit when enough is owed. */
    void consumed(int streamId, int bytes) {
        if (bytes <= 0) {
            return;
        }
        connectionConsumed += bytes;
        boolean crossed = budget.consumed(bytes);
        returnConnectionCredit();
        Http2Stream stream = streamId == 0 ? null : streams.get(streamId);
        if (stream != null && stream.remoteOpen) {
            stream.consumedNotReturned += bytes;
            if (stream.consumedNotReturned >= config.initialWindowSize() / 2) {
                writer.writeWindowUpdate(sender.buffer(), streamId, stream.consumedNotReturned);
                stream.receiveWindow += stream.consumedNotReturned;
                stream.consumedNotReturned = 0;
            }
        }
        if (crossed) {
            budgetCrossed();
        }
    }

    /** Returns the consumed connection credit once half a window is owed, unless the connection is over its budget. */
    private void returnConnectionCredit() {
        if (connectionConsumed >= config.connectionWindowSize() / 2 && !budget.isOver()) {
            writer.writeWindowUpdate(sender.buffer(), 0, connectionConsumed);
            connectionReceiveWindow += connectionConsumed;
            connectionConsumed = 0;
        }
    }

    // ---------------------------------------------------------------- resets and closes

    /**
     * A stream error the peer's frames caused. A stream refused in its first HEADERS (a malformed
     * or oversized field section) was never opened, but its id is used up all the same.
     */
    void streamErrorFromPeer(Http2Exception e) {
        int streamId = e.streamId();
        if (!streams.containsKey(streamId) && !isLocal(streamId) && streamId > lastPeerStreamId) {
            lastPeerStreamId = streamId;
            closed.remember(streamId, true);
        }
        resetStream(streamId, e.error(), e.getMessage());
    }

    /**
     * A field section over our SETTINGS_MAX_HEADER_LIST_SIZE. The HPACK state is in sync, so the
     * connection goes on: a server answers 431 and asks the client to stop sending (RST_STREAM
     * NO_ERROR after a complete response, RFC 9113 §8.1); a client resets the stream. A section
     * more than a quarter over the limit (an HPACK bomb) ends the connection.
     */
    void headerListTooLarge(HeaderListTooLargeException e) throws Http2Exception {
        if (e.size() > e.limit() + e.limit() / 4) {
            throw Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, e.getMessage());
        }
        int streamId = e.streamId();
        if (!config.server() || streams.containsKey(streamId) || isLocal(streamId) || streamId <= lastPeerStreamId) {
            streamErrorFromPeer(e); // trailers, or a client: reset
            return;
        }
        lastPeerStreamId = streamId;
        closed.remember(streamId, true);
        writer.writeHeaders(sender.buffer(), streamId, new Http2Headers().status("431"), true);
        writer.writeRstStream(sender.buffer(), streamId, Http2Error.NO_ERROR);
    }

    /**
     * Ends the streams whose request content is overdue ({@link Http2Timeouts}): {@code 408} where
     * no response began, then RST_STREAM, and an {@link Http2ResetFrame} for the application. A
     * stream whose window, or the connection's, we keep shut gets its time again: the wait is ours.
     */
    void expireBodies(long now, long bodyNanos) {
        List<Http2Stream> overdue = null;
        for (Http2Stream stream : streams.values()) {
            if (stream.bodyDeadline == 0 || now < stream.bodyDeadline) {
                continue;
            }
            if (stream.receiveWindow <= 0 || connectionReceiveWindow <= 0) {
                stream.bodyDeadline = now + bodyNanos;
                continue;
            }
            if (overdue == null) {
                overdue = new java.util.ArrayList<>(4);
            }
            overdue.add(stream);
        }
        if (overdue == null) {
            return;
        }
        for (Http2Stream stream : overdue) {
            Http2Error code = stream.headersSent ? Http2Error.CANCEL : Http2Error.NO_ERROR;
            if (!stream.headersSent) { // a complete response, then "stop sending" (RFC 9113 §8.1)
                try {
                    writer.writeHeaders(sender.buffer(), stream.id, TIMED_OUT, true);
                } catch (Http2Exception e) {
                    throw new IllegalStateException("a constant 408 head failed to encode", e);
                }
            }
            writer.writeRstStream(sender.buffer(), stream.id, code);
            close(stream, true, new Http2Exception(Http2Error.CANCEL, stream.id, "stream " + stream.id
                    + "'s request content did not arrive within the body timeout of "
                    + TimeUnit.NANOSECONDS.toSeconds(bodyNanos) + " s"));
            ctx.fireChannelRead(new Http2ResetFrame(stream.id, Http2Error.CANCEL));
        }
        sender.flush();
        ctx.fireChannelReadComplete();
    }

    /** Sends RST_STREAM (unless the stream is unknown and idle) and forgets the stream. */
    void resetStream(int streamId, Http2Error error, String why) {
        Http2Stream stream = streams.get(streamId);
        if (stream == null && isIdle(streamId) && !closed.contains(streamId)) {
            return; // never opened: nothing to reset
        }
        writer.writeRstStream(sender.buffer(), streamId, error);
        if (stream != null) {
            close(stream, true, new Http2Exception(error, streamId, why));
            if (inbound != null) {
                inbound.add(new Http2ResetFrame(streamId, error));
            }
        } else {
            closed.remember(streamId, true);
        }
    }

    private void close(Http2Stream stream, boolean resetByUs, Throwable cause) {
        if (streams.remove(stream.id) == null) {
            return;
        }
        stream.localOpen = false;
        stream.remoteOpen = false;
        if (isLocal(stream.id)) {
            localOpenedActive--;
        } else {
            peerOpenedActive--;
        }
        closed.remember(stream.id, resetByUs);
        long dropped = stream.pendingBytes;
        stream.failPending(cause);
        if (dropped > 0 && budget.queued(-dropped)) {
            budgetCrossed();
        }
        if (stream.consumedNotReturned > 0) {
            stream.consumedNotReturned = 0;
        }
        stream.recycleIfNeverQueued();
        if (timeouts != null && streams.isEmpty()) {
            timeouts.streamsOpen(false);
        }
        if (streams.isEmpty()) {
            shutdown.streamsClosed();
        }
    }

    // ---------------------------------------------------------------- the peer's end of stream

    /**
     * The peer's input ended: a stream the peer had not finished can never complete and is reset
     * (CANCEL), and so is one whose queued answer exceeds the windows the peer can no longer open
     * (a zero-window client that left, case H2-25); a stream it finished (half-closed remote, RFC
     * 9113 §5.1) is otherwise still answered, before {@link Http2Shutdown#inputEnded} closes.
     */
    void resetStreamsThatCannotFinish() {
        for (Http2Stream stream : new java.util.ArrayList<>(streams.values())) {
            // Content beyond the windows can never leave either: the peer can send no WINDOW_UPDATE now.
            if (stream.remoteOpen || sender.exceedsWindows(stream)) {
                writer.writeRstStream(sender.buffer(), stream.id, Http2Error.CANCEL);
                close(stream, true, new Http2Exception(Http2Error.CANCEL, stream.id, "the peer's input ended first"));
                ctx.fireChannelRead(new Http2ResetFrame(stream.id, Http2Error.CANCEL));
            }
        }
    }

    /** The channel is gone: every stream ends, every queued write fails. */
    void closeAll(Throwable cause) {
        for (Http2Stream stream : streams.values()) {
            stream.failPending(cause);
        }
        streams.clear();
        budget.close();
    }
}
