package io.rill.handler.codec.http2;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.Ticker;

/**
 * The send side of one HTTP/2 connection: the frames the application writes, the content that
 * waits for the peer's windows (RFC 9113 §5.2, §6.9), and the bytes of one flush coalesced into as
 * few buffers as possible.
 *
 * <p>Flow control: DATA waits in its stream's queue until both the stream's and the connection's
 * send windows allow it, and goes out in frames no larger than the peer's maximum frame size. A
 * stream that waits only for the connection window joins {@link #blocked}, so a connection
 * WINDOW_UPDATE serves the streams in the order they started waiting. The common small answer,
 * which the windows allow at once, skips the queue.
 *
 * <p>Coalescing: frame headers, control frames, field blocks and small DATA payloads (up to
 * {@link #COPY_THRESHOLD}) are appended to one {@link #buffer()}; a large DATA payload goes out as
 * a buffer of its own (no copy) right after the bytes before it. The promises of what was appended
 * complete when the buffer holding it is written.
 *
 * <p>Its port: the channel's context (attached once the codec is in a pipeline), the frame writer,
 * the memory budget, the flood guard (content sent earns its budget), the table of open streams,
 * which it reads but never changes, and a {@link Listener} for what the stream table must hear.
 */
final class Http2Sender {

    /** DATA payloads up to this size are copied into the shared buffer rather than written alone. */
    static final int COPY_THRESHOLD = 1024;
    private static final int BUFFER_SIZE = 4096;
    /** Bounds the presized promise list, so one huge flush does not make every later list huge. */
    private static final int MAX_PRESIZED_WAITING = 1024;

    /** What the stream table hears from the send side. */
    interface Listener {

        /** {@code stream} sent its END_STREAM (or is closed for sending): it closes if the peer is done too. */
        void sendEnded(Http2Stream stream);

        /** The memory budget went over or came back under half: every stream's writability follows. */
        void budgetCrossed();
    }

    private final Http2FrameWriter writer;
    private final Http2MemoryBudget budget;
    private final Http2FloodGuard flood;
    /** The open streams; the connection opens and closes them, this side only reads the table. */
    private final IntMap<Http2Stream> streams;
    private final Listener listener;
    private final Http2StallWatch stall;
    private ChannelHandlerContext ctx;

    /** Streams with writes waiting for the connection window; a stream appears at most once. */
    private final ArrayDeque<Http2Stream> blocked = new ArrayDeque<>();
    private long connectionSendWindow = Http2Settings.DEFAULT_WINDOW_SIZE;
    /** The peer's SETTINGS_INITIAL_WINDOW_SIZE: the send window a new stream starts with. */
    private long peerInitialWindow = Http2Settings.DEFAULT_WINDOW_SIZE;

    /** The bytes of this flush not yet passed to the next handler; null until a frame is appended. */
    private ByteBuf buffer;
    /** Promises of frames in {@link #buffer}; completed with its write. */
    private List<Promise<Void>> waiting;
    /** How many promises the last buffer carried: the next list starts that large instead of growing to it. */
    private int lastWaitingCount = 4;
    /** Whether anything was passed to the context since the last flush. */
    private boolean written;
    /**
     * Whether a frame written with the void promise is in {@link #buffer}: it is not listed in
     * {@link #waiting} (nothing to complete, so a response written that way costs no list slot),
     * but the buffer's write then reports a failure to the pipeline once, as the void promise would.
     */
    private boolean voidWaiting;

    Http2Sender(Http2FrameWriter writer, Http2MemoryBudget budget, Http2FloodGuard flood, IntMap<Http2Stream> streams,
            Listener listener, Consumer<Http2Exception> connectionError) {
        this.writer = writer;
        this.budget = budget;
        this.flood = flood;
        this.streams = streams;
        this.listener = listener;
        this.stall = new Http2StallWatch(this::waitingBytes, connectionError);
    }

    /** The codec is in a pipeline: where bytes go, where buffers and timers come from, and the loop's clock. */
    void attach(ChannelHandlerContext ctx, Ticker ticker) {
        this.ctx = ctx;
        stall.attach(ctx, ticker);
    }

    // ---------------------------------------------------------------- frames written

    /** Sends HEADERS (or trailers) on {@code stream}, which is open for writing; trailers wait behind queued content. */
    void writeHeaders(Http2Stream stream, Http2HeadersFrame frame, Promise<Void> promise) throws Http2Exception {
        boolean informational = Http2Messages.isInformational(frame.headers());
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
        writer.writeHeaders(buffer(), stream.id, frame.headers(), frame.endStream());
        completeWithBuffer(promise);
        if (!informational) {
            stream.headersSent = true;
        }
        if (frame.endStream()) {
            listener.sendEnded(stream);
        }
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
        if (!stream.hasPending() && length <= COPY_THRESHOLD && length <= writer.maxFrameSize()
                && length <= Math.min(stream.sendWindow, connectionSendWindow) && ctx.channel().isWritable()) {
            // The common small answer goes straight into the shared buffer: no queue entry, same bytes.
            sendWhole(stream, content, frame.endStream(), promise);
            if (frame.endStream()) {
                listener.sendEnded(stream);
            }
            return;
        }
        // Sent piece by piece through a view of our own: the content's indices stay as given (constant buffers).
        stream.addPending(new Http2Stream.PendingWrite(content.duplicate(), null, frame.endStream(), promise));
        stream.pendingBytes += length;
        if (budget.queued(length)) {
            listener.budgetCrossed();
        }
        if (frame.endStream()) {
            stream.localOpen = false; // nothing may be queued after it; the stream closes when it is sent
        }
        drain(stream);
    }

    // ---------------------------------------------------------------- send windows

    /** The send window a stream opened now starts with. */
    long peerInitialWindow() {
        return peerInitialWindow;
    }

    /** The peer changed SETTINGS_INITIAL_WINDOW_SIZE: every open stream's window moves by the difference (§6.9.2). */
    void peerInitialWindow(long next) throws Http2Exception {
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

    /** A WINDOW_UPDATE on stream 0: what waited for the connection window goes on. */
    void connectionWindowUpdate(int increment) throws Http2Exception {
        connectionSendWindow += increment;
        if (connectionSendWindow > Http2Settings.MAX_WINDOW_SIZE) {
            throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR,
                    "WINDOW_UPDATE makes the connection window exceed 2^31-1");
        }
        drainAll();
    }

    /** A WINDOW_UPDATE on an open stream: its queue goes on. */
    void streamWindowUpdate(Http2Stream stream, int increment) throws Http2Exception {
        stream.sendWindow += increment;
        if (stream.sendWindow > Http2Settings.MAX_WINDOW_SIZE) {
            throw Http2Exception.streamError(stream.id, Http2Error.FLOW_CONTROL_ERROR,
                    "WINDOW_UPDATE makes stream " + stream.id + "'s window exceed 2^31-1");
        }
        drain(stream);
    }

    /** Whether {@code stream} queued more content than its window and the connection's let out. */
    boolean exceedsWindows(Http2Stream stream) {
        return stream.pendingBytes > Math.min(stream.sendWindow, connectionSendWindow);
    }

    // ---------------------------------------------------------------- draining the queues

    /** Sends what the windows and the socket allow of {@code stream}'s queue, then updates its writability. */
    private void drain(Http2Stream stream) {
        long before = stream.pendingBytes;
        drainQueue(stream);
        if (before != stream.pendingBytes && budget.queued(stream.pendingBytes - before)) {
            listener.budgetCrossed(); // updates every stream's writability, this one's included
            return;
        }
        updateWritability(stream);
    }

    private void drainQueue(Http2Stream stream) {
        for (Http2Stream.PendingWrite w; (w = stream.firstPending()) != null; ) {
            if (w.trailers != null) {
                stream.pollPending();
                try {
                    writer.writeHeaders(buffer(), stream.id, w.trailers, true);
                    completeWithBuffer(w.promise);
                } catch (Http2Exception e) {
                    w.promise.tryFailure(e);
                }
                stream.localOpen = false;
                continue;
            }
            int length = w.data.readableBytes();
            if (length > 0 && !ctx.channel().isWritable()) {
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
            int n = (int) Math.min(Math.min(length, window), writer.maxFrameSize());
            stream.pendingBytes -= n;
            if (n == length) {
                stream.pollPending();
                sendWhole(stream, w.data, w.endStream, w.promise);
                continue;
            }
            ByteBuf out = buffer();
            writeDataHeader(out, stream, n, false);
            if (n <= COPY_THRESHOLD) {
                out.writeBytes(w.data, n);
            } else {
                writeLarge(w.data.readRetainedSlice(n), ctx.newPromise());
            }
        }
        if (!stream.localOpen) {
            listener.sendEnded(stream);
        }
    }

    /** Sends all of {@code data} as one DATA frame, which the windows and frame size allow. Owns it, moves no index. */
    private void sendWhole(Http2Stream stream, ByteBuf data, boolean endStream, Promise<Void> promise) {
        int n = data.readableBytes();
        ByteBuf out = buffer();
        writeDataHeader(out, stream, n, endStream);
        if (n <= COPY_THRESHOLD) {
            out.writeBytes(data, data.readerIndex(), n); // a constant buffer may be the body of every response
            data.release();
            completeWithBuffer(promise);
        } else {
            writeLarge(data, promise);
        }
    }

    /** Writes a DATA frame header for {@code n} bytes and takes them from both send windows. */
    private void writeDataHeader(ByteBuf out, Http2Stream stream, int n, boolean endStream) {
        stall.sent(n);
        writer.writeDataHeader(out, stream.id, n, endStream);
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
            if (stream == null) {
                return; // a drain ended the connection (its last stream closed during a graceful close): all discarded
            }
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

    /** Content queued on all streams, waiting for the peer's windows. */
    private long waitingBytes() {
        long waiting = 0;
        for (Http2Stream stream : streams.values()) {
            waiting += stream.pendingBytes;
        }
        return waiting;
    }

    // ---------------------------------------------------------------- stream writability

    /**
     * A stream is writable while little of its content waits (under the water marks of
     * {@link Http2StreamWritabilityChanged}) and the connection is within its budget.
     */
    void updateWritability(Http2Stream stream) {
        boolean writable = !budget.isOver() && (stream.writable
                ? stream.pendingBytes <= Http2StreamWritabilityChanged.HIGH_WATER_MARK
                : stream.pendingBytes < Http2StreamWritabilityChanged.LOW_WATER_MARK);
        if (writable != stream.writable && streams.get(stream.id) == stream) {
            stream.writable = writable;
            ctx.fireUserEventTriggered(new Http2StreamWritabilityChanged(stream.id, writable));
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

    // ---------------------------------------------------------------- the coalescing buffer

    /** The shared buffer, created on demand; append frames to it. */
    ByteBuf buffer() {
        if (buffer == null) {
            buffer = ctx.alloc().buffer(BUFFER_SIZE);
        }
        return buffer;
    }

    /** Completes {@code promise} when the bytes appended so far are written. */
    void completeWithBuffer(Promise<Void> promise) {
        if (promise == ctx.voidPromise()) {
            voidWaiting = true;
            return;
        }
        if (waiting == null) {
            waiting = new ArrayList<>(lastWaitingCount);
        }
        waiting.add(promise);
    }

    /** Writes {@code payload} after what is buffered; {@code promise} completes with it. Takes ownership. */
    private void writeLarge(ByteBuf payload, Promise<Void> promise) {
        passBuffer();
        written = true;
        ctx.write(payload, promise);
    }

    /** Passes the buffered bytes to the next handler and flushes the channel. */
    void flush() {
        passBuffer();
        if (written) {
            written = false;
            ctx.flush();
        }
    }

    private void passBuffer() {
        ByteBuf out = buffer;
        if (out == null) {
            return;
        }
        buffer = null;
        List<Promise<Void>> promises = waiting;
        waiting = null;
        boolean toPipeline = voidWaiting;
        voidWaiting = false;
        if (promises != null) {
            lastWaitingCount = Math.min(Math.max(promises.size(), 4), MAX_PRESIZED_WAITING);
            if (toPipeline) {
                promises.add(ctx.voidPromise());
            }
        } else if (toPipeline && out.isReadable()) {
            written = true;
            ctx.write(out, ctx.voidPromise());
            return;
        }
        written = true;
        if (!out.isReadable()) {
            out.release();
            if (promises != null) {
                promises.forEach(p -> p.trySuccess(null));
            }
            return;
        }
        Future<Void> f = ctx.write(out);
        if (promises != null) {
            f.addListener(done -> {
                for (Promise<Void> p : promises) {
                    if (done.isSuccess()) {
                        p.trySuccess(null);
                    } else {
                        p.tryFailure(done.cause());
                    }
                }
            });
        }
    }

    /** The channel is gone: nothing waits for a window any more, and what is buffered is dropped, its promises failed. */
    void closeAll(Throwable cause) {
        blocked.clear();
        if (buffer != null) {
            buffer.release();
            buffer = null;
        }
        if (waiting != null) {
            waiting.forEach(p -> p.tryFailure(cause));
            waiting = null;
        }
        if (voidWaiting) {
            voidWaiting = false;
            ctx.voidPromise().tryFailure(cause);
        }
    }
}
