package io.rill.handler.codec.http2;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.util.concurrent.Promise;

/**
 * The state of one HTTP/2 connection for {@link Http2FrameCodec}: its streams (RFC 9113 §5.1),
 * both directions of flow control (§5.2, §6.9), the peer's settings, and GOAWAY. It receives the
 * frames the reader parsed and the frames the application writes.
 *
 * <p>Flow control, receiving: a DATA frame takes its length from the stream's and the
 * connection's receive windows; the credit comes back (WINDOW_UPDATE) only once the application
 * has consumed the bytes and at least half a window is owed, so a peer cannot make us buffer more
 * than the windows we advertised. Sending: DATA waits in the stream's queue until both the
 * stream's and the connection's send windows allow it, and goes out in frames no larger than the
 * peer's maximum frame size.
 */
final class Http2Connection implements Http2FrameListener {

    /** How many closed streams we remember, to tell "closed" (STREAM_CLOSED) from "never opened". */
    private static final int REMEMBERED_CLOSED = 256;
    /** The payload of the PING that times the final GOAWAY of a graceful shutdown ("RILLBYE!"). */
    private static final long SHUTDOWN_PING = 0x52494C4C4259_4521L;
    /** How long a graceful shutdown waits for that PING before sending the final GOAWAY anyway. */
    private static final long SHUTDOWN_PING_WAIT_MILLIS = 2_000;
    /** How long a graceful shutdown waits for open streams to finish before closing anyway. */
    private static final long SHUTDOWN_GRACE_MILLIS = 30_000;
    /** The answer to a request whose content did not arrive in time; never modified. */
    private static final Http2Headers TIMED_OUT = new Http2Headers().status("408").add("content-length", "0");

    private final Http2FrameCodec codec;
    private final Http2Config config;
    private final Http2Outbound outbound;
    private final IntMap<Http2Stream> streams = new IntMap<>();
    /** Recently closed streams: id to whether we reset it (frames then still in flight are ignored). */
    private final RecentlyClosedStreams closed = new RecentlyClosedStreams(REMEMBERED_CLOSED);
    /** Streams with writes waiting for the connection window; a stream appears at most once. */
    private final ArrayDeque<Http2Stream> blocked = new ArrayDeque<>();

    final Http2FloodGuard flood = new Http2FloodGuard(200, TimeUnit.SECONDS.toNanos(30));

    /** Where decoded frames go during a read; null outside one. */
    private List<Object> inbound;

    private int lastPeerStreamId;
    private int nextLocalStreamId;
    /** The highest stream this endpoint opened (sent HEADERS on). */
    private int lastLocalOpened;
    private long connectionSendWindow = Http2Settings.DEFAULT_WINDOW_SIZE;
    private int connectionReceiveWindow;
    private int connectionConsumed;
    private long peerInitialWindow = Http2Settings.DEFAULT_WINDOW_SIZE;
    private long peerMaxConcurrentStreams = Long.MAX_VALUE;
    private int peerOpenedActive;
    private int localOpenedActive;

    private final Http2StallWatch stall;
    /** What this connection holds, against its budget and the server's. */
    private final Http2MemoryBudget budget;

    private boolean goAwaySent;
    private boolean goAwayReceived;
    private int goAwayLastStreamId;
    private Promise<Void> shutdownPromise;

    Http2Connection(Http2FrameCodec codec, Http2Config config) {
        this.codec = codec;
        this.config = config;
        this.outbound = new Http2Outbound(codec);
        this.stall = new Http2StallWatch(codec, this::waitingBytes);
        this.budget = new Http2MemoryBudget(codec, config.maxHeldBytes(), config.server() ? config.serverBudget() : null);
        this.connectionReceiveWindow = config.connectionWindowSize();
        this.nextLocalStreamId = config.server() ? 2 : 1;
    }

    Http2Outbound outbound() {
        return outbound;
    }

    Http2MemoryBudget budget() {
        return budget;
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
            codec.timeouts().bodyReceived(stream, flowControlled);
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
        ByteBuf copy = codec.ctx().alloc().buffer(n, n);
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
            Http2Timeouts timeouts = codec.timeouts();
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
            flood.reset(codec.nanoTime()); // the peer opened it and took it back: rapid reset counts these
        }
        inbound.add(new Http2ResetFrame(streamId, error));
    }

    @Override
    public void onSettings(Http2Settings settings) throws Http2Exception {
        flood.cheapFrame("SETTINGS");
        applyPeerSettings(settings);
        codec.writer.writeSettingsAck(outbound.buffer());
        drainAll();
        codec.peerSettingsApplied();
    }

    /** Takes the peer's settings into effect; no acknowledgement (the caller sends one if due). */
    void applyPeerSettings(Http2Settings settings) throws Http2Exception {
        if (settings.has(Http2Settings.INITIAL_WINDOW_SIZE)) {
            long next = settings.get(Http2Settings.INITIAL_WINDOW_SIZE, 0);
            long delta = next - peerInitialWindow;
            peerInitialWindow = next;
            for (Http2Stream stream : streams.values()) {
                stream.sendWindow += delta;
                if (stream.sendWindow > Http2Settings.MAX_WINDOW_SIZE) {
                    throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE "
                            + next + " makes stream " + stream.id + "'s window exceed 2^31-1");
                }
            }
        }
        if (settings.has(Http2Settings.MAX_FRAME_SIZE)) {
            codec.writer.maxFrameSize((int) settings.get(Http2Settings.MAX_FRAME_SIZE, 0));
        }
        if (settings.has(Http2Settings.MAX_CONCURRENT_STREAMS)) {
            peerMaxConcurrentStreams = settings.get(Http2Settings.MAX_CONCURRENT_STREAMS, 0);
        }
        if (settings.has(Http2Settings.HEADER_TABLE_SIZE)) {
            codec.peerHeaderTableSize(settings.get(Http2Settings.HEADER_TABLE_SIZE, 0));
        }
        if (settings.has(Http2Settings.ENABLE_CONNECT_PROTOCOL)) {
            codec.peerConnectProtocol(settings.get(Http2Settings.ENABLE_CONNECT_PROTOCOL, 0) == 1);
        }
    }

    /**
     * Opens stream 1 for an HTTP/1.1 request that upgraded the connection (RFC 7540 §3.2): on a
     * server the peer's request, already complete (half-closed remote); on a client our request,
     * already sent (half-closed local).
     */
    void openUpgradeStream() {
        Http2Stream stream = Http2Stream.open(1, peerInitialWindow, config.initialWindowSize());
        streams.put(1, stream);
        if (config.server()) {
            stream.headersReceived = true;
            stream.remoteOpen = false;
            lastPeerStreamId = 1;
            peerOpenedActive++;
            flood.streamOpened();
            if (codec.timeouts() != null) {
                codec.timeouts().streamsOpen(true);
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
        if (!codec.settingsAcknowledged()) {
            flood.cheapFrame("a SETTINGS ACK for no SETTINGS of ours");
        }
    }

    @Override
    public void onPing(long data, boolean ack) throws Http2Exception {
        flood.cheapFrame("PING");
        if (!ack) {
            codec.writer.writePing(outbound.buffer(), data, true);
        } else if (data == SHUTDOWN_PING && shutdownPromise != null && !goAwaySent) {
            finalGoAway(); // a round trip after the first GOAWAY: what the peer sent before it has arrived
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
            connectionSendWindow += increment;
            if (connectionSendWindow > Http2Settings.MAX_WINDOW_SIZE) {
                throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR,
                        "WINDOW_UPDATE makes the connection window exceed 2^31-1");
            }
            drainAll();
            return;
        }
        Http2Stream stream = streams.get(streamId);
        if (stream == null) {
            if (isIdle(streamId)) {
                throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + streamId);
            }
            return;
        }
        stream.sendWindow += increment;
        if (stream.sendWindow > Http2Settings.MAX_WINDOW_SIZE) {
            throw Http2Exception.streamError(streamId, Http2Error.FLOW_CONTROL_ERROR,
                    "WINDOW_UPDATE makes stream " + streamId + "'s window exceed 2^31-1");
        }
        drain(stream);
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
        if (goAwaySent) {
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
        Http2Stream stream = Http2Stream.open(streamId, peerInitialWindow, config.initialWindowSize());
        streams.put(streamId, stream);
        peerOpenedActive++;
        flood.streamOpened();
        Http2Timeouts timeouts = codec.timeouts();
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

    // ---------------------------------------------------------------- frames written

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
        boolean informational = Http2Messages.isInformational(frame.headers());
        if (!config.server() && !stream.headersSent && "HEAD".contentEquals(String.valueOf(frame.headers().method()))) {
            stream.requestWasHead = true;
        }
        if (stream.headersSent && !frame.endStream()) {
            promise.tryFailure(new IllegalStateException("trailers on stream " + stream.id + " must end the stream"));
            return;
        }
        if (stream.hasPending()) {
            // Trailers wait behind the content queued before them.
            stream.addPending(new Http2Stream.PendingWrite(null, frame.headers(), frame.endStream(), promise));
            stream.localOpen = false;
            return;
        }
        codec.writer.writeHeaders(outbound.buffer(), stream.id, frame.headers(), frame.endStream());
        outbound.completeWithBuffer(promise);
        if (!informational) {
            stream.headersSent = true;
        }
        if (frame.endStream()) {
            localEnded(stream);
        }
    }

    private Http2Stream openLocal(int id) throws Http2Exception {
        if (goAwayReceived || goAwaySent) {
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
        Http2Stream stream = Http2Stream.open(id, peerInitialWindow, config.initialWindowSize());
        stream.writable = !budget.isOver();
        streams.put(stream.id, stream);
        localOpenedActive++;
        return stream;
    }

    void writeData(Http2DataFrame frame, Promise<Void> promise) {
        Http2Stream stream = streams.get(frame.streamId());
        if (stream == null || !stream.localOpen || !stream.headersSent) {
            frame.release();
            promise.tryFailure(new IllegalStateException("stream " + frame.streamId()
                    + (stream == null || !stream.localOpen ? " is closed for writing" : " has sent no HEADERS yet")));
            return;
        }
        ByteBuf content = frame.content();
        int length = content.readableBytes();
        if (!stream.hasPending() && length <= Http2Outbound.COPY_THRESHOLD && length <= codec.writer.maxFrameSize()
                && length <= Math.min(stream.sendWindow, connectionSendWindow) && codec.ctx().channel().isWritable()) {
            // The common small answer goes straight into the shared buffer: no queue entry, same bytes.
            sendWhole(stream, content, frame.endStream(), promise);
            if (frame.endStream()) {
                localEnded(stream);
            }
            return;
        }
        // Sent piece by piece through a view of our own: the content's indices stay as given (constant buffers).
        stream.addPending(new Http2Stream.PendingWrite(content.duplicate(), null, frame.endStream(), promise));
        stream.pendingBytes += length;
        if (budget.queued(length)) {
            budgetCrossed();
        }
        if (frame.endStream()) {
            stream.localOpen = false; // nothing may be queued after it; the stream closes when it is sent
        }
        drain(stream);
    }

    /** Sends what the windows and the socket allow of {@code stream}'s queue, then updates its writability. */
    private void drain(Http2Stream stream) {
        long before = stream.pendingBytes;
        drainQueue(stream);
        if (before != stream.pendingBytes && budget.queued(stream.pendingBytes - before)) {
            budgetCrossed(); // updates every stream's writability, this one's included
            return;
        }
        updateWritability(stream);
    }

    /**
     * A stream is writable while little of its content waits (under the water marks of
     * {@link Http2StreamWritabilityChanged}) and the connection is within its budget.
     */
    private void updateWritability(Http2Stream stream) {
        boolean writable = !budget.isOver() && (stream.writable
                ? stream.pendingBytes <= Http2StreamWritabilityChanged.HIGH_WATER_MARK
                : stream.pendingBytes < Http2StreamWritabilityChanged.LOW_WATER_MARK);
        if (writable != stream.writable && streams.get(stream.id) == stream) {
            stream.writable = writable;
            codec.ctx().fireUserEventTriggered(new Http2StreamWritabilityChanged(stream.id, writable));
        }
    }

    /**
     * The connection went over its budget or came back under half of it: its streams' writability
     * follows, and withheld connection credit goes back once it is under. The streams are copied
     * first: a handler may open or end streams when told.
     */
    private void budgetCrossed() {
        if (budget.isOver()) {
            codec.budgetExceeded(budget.held(), budget.limit());
        }
        for (Http2Stream stream : new java.util.ArrayList<>(streams.values())) {
            if (stream.localOpen) {
                updateWritability(stream);
            }
        }
        if (!budget.isOver()) {
            returnConnectionCredit();
        }
    }

    /**
     * Whether content written to {@code streamId} now would go out without waiting long: the
     * stream is open for writing and less than the high water mark of content waits for the
     * peer's windows.
     */
    boolean isStreamWritable(int streamId) {
        Http2Stream stream = streams.get(streamId);
        return stream != null && stream.localOpen && stream.writable;
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

    /** Content queued on all streams, waiting for the peer's windows. */
    private long waitingBytes() {
        long waiting = 0;
        for (Http2Stream stream : streams.values()) {
            waiting += stream.pendingBytes;
        }
        return waiting;
    }

    private void drainQueue(Http2Stream stream) {
        for (Http2Stream.PendingWrite w; (w = stream.firstPending()) != null; ) {
            if (w.trailers != null) {
                stream.pollPending();
                try {
                    codec.writer.writeHeaders(outbound.buffer(), stream.id, w.trailers, true);
                    outbound.completeWithBuffer(w.promise);
                } catch (Http2Exception e) {
                    w.promise.tryFailure(e);
                }
                stream.localOpen = false;
                continue;
            }
            int length = w.data.readableBytes();
            if (length > 0 && !codec.ctx().channel().isWritable()) {
                stall.contentWaits(); // the socket's queue is full: content waits here, where it is counted
                return;
            }
            long window = Math.min(stream.sendWindow, connectionSendWindow);
            if (length > 0 && window <= 0) {
                if (connectionSendWindow <= 0 && stream.sendWindow > 0) {
                    blocked.add(stream);
                }
                stall.contentWaits();
                return;
            }
            int n = (int) Math.min(Math.min(length, window), codec.writer.maxFrameSize());
            stream.pendingBytes -= n;
            if (n == length) {
                stream.pollPending();
                sendWhole(stream, w.data, w.endStream, w.promise);
                continue;
            }
            ByteBuf out = outbound.buffer();
            writeDataHeader(out, stream, n, false);
            if (n <= Http2Outbound.COPY_THRESHOLD) {
                out.writeBytes(w.data, n);
            } else {
                outbound.writeLarge(w.data.readRetainedSlice(n), codec.ctx().newPromise());
            }
        }
        if (!stream.localOpen) {
            localEnded(stream);
        }
    }

    /** Sends all of {@code data} as one DATA frame, which the windows and frame size allow. Owns it, moves no index. */
    private void sendWhole(Http2Stream stream, ByteBuf data, boolean endStream, Promise<Void> promise) {
        int n = data.readableBytes();
        ByteBuf out = outbound.buffer();
        writeDataHeader(out, stream, n, endStream);
        if (n <= Http2Outbound.COPY_THRESHOLD) {
            out.writeBytes(data, data.readerIndex(), n); // a constant buffer may be the body of every response
            data.release();
            outbound.completeWithBuffer(promise);
        } else {
            outbound.writeLarge(data, promise);
        }
    }

    /** Writes a DATA frame header for {@code n} bytes and takes them from both send windows. */
    private void writeDataHeader(ByteBuf out, Http2Stream stream, int n, boolean endStream) {
        stall.sent(n);
        codec.writer.writeDataHeader(out, stream.id, n, endStream);
        stream.sendWindow -= n;
        connectionSendWindow -= n;
        flood.content(n);
    }

    /** Sends what the windows and the socket allow of every stream's queue. */
    void drainAll() {
        if (connectionSendWindow <= 0) {
            return;
        }
        for (int i = blocked.size(); i > 0 && connectionSendWindow > 0; i--) {
            Http2Stream stream = blocked.poll();
            if (streams.get(stream.id) == stream) {
                drain(stream);
            }
        }
        for (Http2Stream stream : streams.values()) {
            if (stream.hasPending()) {
                drain(stream);
            }
        }
    }

    private void localEnded(Http2Stream stream) {
        stream.localOpen = false;
        if (stream.isClosed() && !stream.hasPending()) {
            close(stream, false, null);
        }
    }

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
                codec.writer.writeWindowUpdate(outbound.buffer(), streamId, stream.consumedNotReturned);
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
            codec.writer.writeWindowUpdate(outbound.buffer(), 0, connectionConsumed);
            connectionReceiveWindow += connectionConsumed;
            connectionConsumed = 0;
        }
    }

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
        codec.writer.writeHeaders(outbound.buffer(), streamId, new Http2Headers().status("431"), true);
        codec.writer.writeRstStream(outbound.buffer(), streamId, Http2Error.NO_ERROR);
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
                    codec.writer.writeHeaders(outbound.buffer(), stream.id, TIMED_OUT, true);
                } catch (Http2Exception e) {
                    throw new IllegalStateException("a constant 408 head failed to encode", e);
                }
            }
            codec.writer.writeRstStream(outbound.buffer(), stream.id, code);
            close(stream, true, new Http2Exception(Http2Error.CANCEL, stream.id, "stream " + stream.id
                    + "'s request content did not arrive within the body timeout of "
                    + TimeUnit.NANOSECONDS.toSeconds(bodyNanos) + " s"));
            codec.ctx().fireChannelRead(new Http2ResetFrame(stream.id, Http2Error.CANCEL));
        }
        outbound.flush();
        codec.ctx().fireChannelReadComplete();
    }

    /** Sends RST_STREAM (unless the stream is unknown and idle) and forgets the stream. */
    void resetStream(int streamId, Http2Error error, String why) {
        Http2Stream stream = streams.get(streamId);
        if (stream == null && isIdle(streamId) && !closed.contains(streamId)) {
            return; // never opened: nothing to reset
        }
        codec.writer.writeRstStream(outbound.buffer(), streamId, error);
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
        Http2Timeouts timeouts = codec.timeouts();
        if (timeouts != null && streams.isEmpty()) {
            timeouts.streamsOpen(false);
        }
        if (shutdownPromise != null && goAwaySent && streams.isEmpty()) {
            finishShutdown();
        }
    }

    // ---------------------------------------------------------------- shutdown

    /** Sends GOAWAY naming the last stream the peer opened; new streams above it are then ignored. */
    void goAway(Http2Error error, String debug) {
        goAwaySent = true;
        codec.writer.writeGoAway(outbound.buffer(), lastPeerStreamId, error, debug);
    }

    /**
     * The graceful shutdown of RFC 9113 §6.8. A server first sends GOAWAY with the highest
     * possible stream id and a PING: requests the client sent before it saw that GOAWAY are still
     * served. When the PING comes back (one round trip later, or after a bound) the final GOAWAY
     * names the last stream really opened, and the connection closes once the streams up to it
     * are done, or after {@value #SHUTDOWN_GRACE_MILLIS} ms. A client has no such race: one GOAWAY.
     */
    void shutdownGracefully(Promise<Void> promise) {
        if (shutdownPromise != null) {
            if (promise != codec.ctx().voidPromise()) { // the transport's repeated closes add nothing to wait for
                shutdownPromise.addListener(f -> promise.trySuccess(null));
            }
            return;
        }
        // The void promise (the transport's, at the peer's end of stream) takes no listener; later closes need one.
        shutdownPromise = promise == codec.ctx().voidPromise() ? codec.ctx().newPromise() : promise;
        codec.ctx().executor().schedule(this::finishShutdown, SHUTDOWN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        if (goAwaySent) {
            outbound.flush();
            finishShutdownIfIdle();
        } else if (config.server()) {
            codec.writer.writeGoAway(outbound.buffer(), Http2Settings.MAX_WINDOW_SIZE, Http2Error.NO_ERROR, "shutting down");
            codec.writer.writePing(outbound.buffer(), SHUTDOWN_PING, false);
            outbound.flush();
            codec.ctx().executor().schedule(() -> {
                if (!goAwaySent) {
                    finalGoAway();
                }
            }, SHUTDOWN_PING_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            finalGoAway();
        }
    }

    /**
     * The close at the peer's end of stream: a stream the peer had not finished can never complete
     * and is reset (CANCEL), and so is one whose queued answer exceeds the windows the peer can no
     * longer open (a zero-window client that left, case H2-25); a stream it finished (half-closed
     * remote, RFC 9113 §5.1) is otherwise answered,
     * then the connection closes, without the PING of {@link #shutdownGracefully}, which could not come back.
     */
    void inputEnded(Promise<Void> promise) {
        for (Http2Stream stream : new java.util.ArrayList<>(streams.values())) {
            // Content beyond the windows can never leave either: the peer can send no WINDOW_UPDATE now.
            boolean stuck = stream.pendingBytes > Math.min(stream.sendWindow, connectionSendWindow);
            if (stream.remoteOpen || stuck) {
                codec.writer.writeRstStream(outbound.buffer(), stream.id, Http2Error.CANCEL);
                close(stream, true, new Http2Exception(Http2Error.CANCEL, stream.id, "the peer's input ended first"));
                codec.ctx().fireChannelRead(new Http2ResetFrame(stream.id, Http2Error.CANCEL));
            }
        }
        if (!goAwaySent) {
            goAway(Http2Error.NO_ERROR, "end of stream");
        }
        shutdownGracefully(promise);
        outbound.flush();
        finishShutdownIfIdle();
    }

    private void finalGoAway() {
        goAway(Http2Error.NO_ERROR, "shutting down");
        outbound.flush();
        finishShutdownIfIdle();
    }

    private void finishShutdownIfIdle() {
        if (streams.isEmpty()) {
            finishShutdown();
        }
    }

    private void finishShutdown() {
        Promise<Void> promise = shutdownPromise;
        if (promise == null || promise.isDone()) {
            return;
        }
        outbound.flush();
        codec.ctx().close(promise);
    }

    /** The channel is gone: every stream ends, every queued write fails. */
    void closeAll(Throwable cause) {
        for (Http2Stream stream : streams.values()) {
            stream.failPending(cause);
        }
        streams.clear();
        blocked.clear();
        budget.close();
        outbound.discard(cause);
    }
}
