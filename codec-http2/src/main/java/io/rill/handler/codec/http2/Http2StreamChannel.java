package io.rill.handler.codec.http2;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.ArrayDeque;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.FutureListener;
import io.rill.util.concurrent.Promise;

/**
 * One HTTP/2 stream as a channel of its own, with its own pipeline, attributes, configuration,
 * writability and close future; made by {@link Http2MultiplexHandler} for each stream the peer
 * opens and by {@link Http2StreamChannelBootstrap} for each stream this side opens. It shares the
 * connection's event loop, allocator and addresses; {@link #parent()} is the connection.
 *
 * <p>Reading: the pipeline reads the stream's {@link Http2HeadersFrame}s and
 * {@link Http2DataFrame}s (and owns, so releases, each data frame). Frames wait in the stream
 * until the channel asks for them ({@code AUTO_READ}, or {@link #read()} while it is off: one
 * frame per call). A data frame's flow-control credit goes back to the peer only once the
 * pipeline has read it, so a stream that is not read holds the peer at its window: the queue
 * never holds more than the window the codec advertised. A reset by the peer fires the
 * {@link Http2ResetFrame} as a user event, drops what is queued and closes the channel.
 *
 * <p>Writing: the pipeline writes {@link Http2HeadersFrame}, {@link Http2DataFrame} and
 * {@link Http2ResetFrame} with stream id 0 or this stream's id (the channel puts its own in). A
 * write completes when the frame has been handed to the connection's codec, the way a socket
 * write completes when the kernel took the bytes. It fails if the codec refuses the frame (DATA
 * after END_STREAM, a stream the peer's concurrency limit or GOAWAY refuses); a failure the codec
 * reports only later goes to this pipeline's {@code exceptionCaught} while the channel is open.
 *
 * <p>Writability: frames move to the codec only while the stream is writable there (less than
 * {@link Http2StreamWritabilityChanged#HIGH_WATER_MARK} waiting for the peer's windows) and the
 * connection is writable; meanwhile they wait in this channel's outbound buffer, and
 * {@link #isWritable()} is false (also once that buffer passes its {@code WRITE_BUFFER_WATER_MARK}),
 * so a producer that checks writability sends no faster than the peer reads. As with sockets,
 * {@code PAUSE_READ_WHEN_UNWRITABLE} is on for streams the peer opened (a server stops reading a
 * request it cannot answer) and off for streams this side opened.
 *
 * <p>Closing: the channel closes when the stream ended both ways (END_STREAM sent and read), when
 * the peer resets it, when the connection closes, or when {@link #close()} is called; a close
 * before both ends are done resets the stream with {@link Http2Error#CANCEL}.
 *
 * <p>Like every channel, its events run on its event loop (the connection's); its operations may be
 * called from any thread.
 */
public final class Http2StreamChannel extends AbstractChannel {

    private enum State { OPEN, ACTIVE, CLOSED }

    private final Http2MultiplexHandler multiplex;
    private final int streamId;
    private final ChannelConfig config = new ChannelConfig(this);
    /** Received frames the pipeline has not read yet; bounded by the stream's receive window. */
    private final ArrayDeque<Object> inbound = new ArrayDeque<>(4);
    /** Reports a frame the codec refused; one instance, so a write allocates no listener. */
    private final FutureListener<Void> writeFailureReporter = this::reportWriteFailure;
    private State state = State.OPEN;
    /** A read() is outstanding: the next received frame may be delivered at once. */
    private boolean readRequested;
    /** Frames were delivered during the connection's read burst; channelReadComplete is owed at its end. */
    private boolean readCompletePending;
    /** Whether the stream exists in the codec (the peer's HEADERS came, or ours went): a close may owe it a reset. */
    private boolean opened;
    /** A task to deliver queued frames is on the loop. */
    private boolean deliveryQueued;
    /** deliver() is running: a read() from inside the pipeline only sets {@link #readRequested}. */
    private boolean delivering;
    /** Whether a frame with END_STREAM went to the codec. */
    private boolean localEnded;
    /** Whether the pipeline read the peer's END_STREAM. */
    private boolean remoteEnded;
    /** Whether the stream was reset, by either side: nothing more goes to the codec for it. */
    private boolean reset;

    Http2StreamChannel(Http2MultiplexHandler multiplex, int streamId, boolean openedByPeer) {
        super(multiplex.ctx().channel(), multiplex.ctx().channel().eventLoop());
        this.multiplex = multiplex;
        this.streamId = streamId;
        this.opened = openedByPeer;
        config.setAllocator(multiplex.ctx().alloc());
        // As for sockets: a stream the peer opened (a server's) stops reading while it cannot write,
        // one we opened (a client's) reads on, or an upload and its streamed answer would wait on each other.
        config.setPauseReadWhenUnwritable(openedByPeer);
        if (!parent().isWritable()) {
            outboundBuffer().setUserDefinedWritability(Http2MultiplexHandler.CONNECTION_WRITABILITY_BIT, false);
        }
    }

    /**
     * The stream's identifier: odd for streams a client opened, even for a server's.
     *
     * @return the id, fixed for the channel's life
     */
    public int streamId() {
        return streamId;
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        return state == State.ACTIVE;
    }

    @Override
    protected SocketAddress localAddress0() {
        return parent().localAddress();
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return parent().remoteAddress();
    }

    // ---------------------------------------------------------------- inbound, from the multiplex handler

    /** The connection received {@code frame} (headers or data) for this stream; takes ownership. */
    void frameReceived(Object frame) {
        if (!isOpen()) {
            discard(frame);
            return;
        }
        inbound.add(frame);
        if (readCompletePending && config.isReadingAutomatically()) {
            readRequested = true; // the read this burst's end would request anyway
        }
        if (readRequested) {
            deliver();
        }
    }

    /**
     * The stream was reset, by the peer or by the codec after a stream error, or refused by a GOAWAY
     * (then {@link Http2Error#REFUSED_STREAM}): what is queued is dropped, the pipeline hears of it
     * as a user event, the channel closes.
     */
    void resetReceived(Http2ResetFrame frame) {
        boolean ours = reset; // the codec echoes a reset this channel wrote: no news for the pipeline
        reset = true;
        if (!ours) {
            pipeline().fireUserEventTriggered(frame);
        }
        close();
    }

    /** The connection's read burst ended: fires the channelReadComplete owed for frames delivered in it. */
    void connectionReadComplete() {
        if (readCompletePending) {
            readCompletePending = false;
            if (isOpen()) { // else a handler closed it: nothing more to complete
                pipeline().fireChannelReadComplete();
                closeIfEnded();
            }
        }
    }

    /** Closes once the stream ended both ways or was reset, but not before the read burst's channelReadComplete. */
    private void closeIfEnded() {
        if (!delivering && !readCompletePending && isOpen() && (reset || localEnded && remoteEnded)) {
            close();
        }
    }

    /**
     * Within the connection's read burst, queued frames go out at once; outside it, as a task of
     * their own, so a handler that calls read() from channelReadComplete does not recurse once per
     * queued frame.
     */
    @Override
    protected void doBeginRead() {
        readRequested = true;
        if (inbound.isEmpty() || delivering) {
            return;
        }
        if (multiplex.inReadBurst()) {
            deliver();
        } else if (!deliveryQueued) {
            deliveryQueued = true;
            eventLoop().execute(this::deliverQueued);
        }
    }

    private void deliverQueued() {
        deliveryQueued = false;
        if (readRequested && !inbound.isEmpty()) {
            deliver();
        }
    }

    /**
     * Passes queued frames to the pipeline: all of them while reading automatically, else one per
     * read(). Within the connection's read burst the channelReadComplete waits for the burst's end,
     * so a pipeline sees one per burst; outside it (a late read()) it fires at once.
     */
    private void deliver() {
        if (delivering) {
            return; // a read() from a handler during delivery: the loop below sees readRequested
        }
        delivering = true;
        int delivered = 0;
        try {
            while (isActive() && (readRequested || delivered > 0 && config.isReadingAutomatically())) {
                Object frame = inbound.poll();
                if (frame == null) {
                    break; // a request still outstanding stands for the next frame
                }
                readRequested = false;
                delivered++;
                deliverOne(frame);
            }
        } finally {
            delivering = false;
        }
        if (delivered == 0) {
            return;
        }
        if (multiplex.inReadBurst()) {
            if (!readCompletePending) {
                readCompletePending = true;
                multiplex.readCompleteOwed(this);
            }
        } else {
            pipeline().fireChannelReadComplete();
            multiplex.ctx().flush(); // the credit just returned
        }
        closeIfEnded();
    }

    private void deliverOne(Object frame) {
        if (frame instanceof Http2DataFrame data) {
            int credit = data.flowControlled();
            boolean end = data.endStream();
            pipeline().fireChannelRead(data);
            // Read means consumed: the peer may send as much again (the codec batches the updates).
            returnCredit(credit);
            remoteEnded |= end;
        } else {
            remoteEnded |= ((Http2HeadersFrame) frame).endStream();
            pipeline().fireChannelRead(frame);
        }
    }

    private void returnCredit(int bytes) {
        if (bytes > 0 && parent().isActive()) {
            multiplex.ctx().write(new Http2WindowUpdateFrame(streamId, bytes), multiplex.ctx().voidPromise());
        }
    }

    /** Releases a frame nobody will read, giving its credit back to the connection. */
    private void discard(Object frame) {
        if (frame instanceof Http2DataFrame data) {
            returnCredit(data.flowControlled());
            data.release();
        }
    }

    // ---------------------------------------------------------------- outbound, to the codec

    /** Puts this stream's id into the frame; refuses anything but a stream frame of this stream. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof Http2StreamFrame frame && frame.streamId() != streamId && frame.streamId() != 0) {
            throw new IllegalArgumentException("stream channel " + streamId + " cannot write a frame of stream "
                    + frame.streamId());
        }
        if (msg instanceof Http2DataFrame data) {
            return data.streamId() == streamId ? data : new Http2DataFrame(streamId, data.content(), data.endStream());
        }
        if (msg instanceof Http2HeadersFrame headers) {
            return headers.streamId() == streamId ? headers
                    : new Http2HeadersFrame(streamId, headers.headers(), headers.endStream());
        }
        if (msg instanceof Http2ResetFrame rst) {
            return rst.streamId() == streamId ? rst : new Http2ResetFrame(streamId, rst.error());
        }
        throw new IllegalArgumentException("a stream channel writes Http2HeadersFrame, Http2DataFrame or "
                + "Http2ResetFrame, not " + (msg == null ? "null" : msg.getClass().getName()));
    }

    /** Content bytes count against this channel's water marks. */
    @Override
    protected int messageSize(Object msg) {
        return msg instanceof Http2DataFrame data ? data.content().readableBytes() : 0;
    }

    /**
     * Hands flushed frames to the codec while it takes them. A frame the codec refuses at once
     * (closed for writing, a stream refused) fails its write; one it refuses later (an opening
     * HEADERS it could not send) goes to exceptionCaught.
     *
     * <p>Flushing the connection can make it writable again at once, and the writability event
     * that says so arrives while this method still runs, when {@code resumeWrites} is a no-op: so
     * after each flush the loop looks again instead of waiting for an event already spent.
     */
    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        boolean wrote;
        do {
            wrote = false;
            try {
                wrote = passOnWhileAllowed(in);
            } finally {
                if (wrote) {
                    multiplex.ctx().flush();
                }
            }
        } while (wrote && in.current() != null && mayPassOn());
        closeIfEnded();
    }

    /** Passes frames on until the buffer is empty or the codec should take no more; whether any went. */
    private boolean passOnWhileAllowed(ChannelOutboundBuffer in) {
        boolean wrote = false;
        for (Object msg; (msg = in.current()) != null; ) {
            if (!(msg instanceof Http2ResetFrame) && !mayPassOn()) {
                return wrote; // resumed by the stream's or the connection's writability event
            }
            Future<Void> f = passOn(msg);
            wrote |= f != null;
            if (f == null) {
                reset = true; // never opened: nothing to reset, just close
                in.remove(new IllegalStateException("stream " + streamId
                        + " opened out of order: a stream reserved after it sent HEADERS first"));
            } else if (f.isDone() && !f.isSuccess()) {
                in.remove(f.cause());
            } else {
                // The codec holds its own reference now; remove() releases ours and completes the write.
                in.remove();
            }
        }
        return wrote;
    }

    /** Whether the codec takes more of this stream now without piling it up beyond the water mark. */
    private boolean mayPassOn() {
        if (!parent().isWritable()) {
            return false;
        }
        return !opened || localEnded || reset || multiplex.codec().isStreamWritable(streamId);
    }

    /** Hands one frame to the codec; null if its first HEADERS may not open the stream (ids out of order). */
    private Future<Void> passOn(Object msg) {
        boolean opening = false;
        if (msg instanceof Http2HeadersFrame headers) {
            if (!opened && !multiplex.mayOpen(streamId)) {
                return null;
            }
            opening = !opened;
            opened = true;
            localEnded |= headers.endStream();
        } else if (msg instanceof Http2DataFrame data) {
            localEnded |= data.endStream();
        } else {
            reset = true;
        }
        Future<Void> f = multiplex.ctx().write(ReferenceCountUtil.retain(msg));
        if (f.isDone()) {
            if (opening && !f.isSuccess()) {
                reset = true; // refused (GOAWAY, the peer's stream limit): the peer never saw it, so no reset
            }
        } else {
            f.addListener(opening ? this::openingHeadersWritten : writeFailureReporter);
        }
        return f;
    }

    /** The codec could not send the opening HEADERS: the stream is unusable; the peer never saw it, so no reset. */
    private void openingHeadersWritten(Future<? extends Void> f) {
        if (!f.isSuccess()) {
            reset = true;
            reportWriteFailure(f);
            close();
        }
    }

    /**
     * A frame the codec refused goes to exceptionCaught; a transport failure does not, since the
     * connection closes with it and takes this channel along (a socket's writes fail silently too).
     */
    private void reportWriteFailure(Future<? extends Void> f) {
        if (!f.isSuccess() && isOpen() && !(f.cause() instanceof IOException)) {
            pipeline().fireExceptionCaught(f.cause());
        }
    }

    /**
     * The codec's queue for this stream crossed a water mark (bit 1), or the connection's writability
     * changed (bit 2): this channel's writability follows at once, and frames held back move on.
     */
    void writabilityChanged(int bit, boolean writable) {
        ChannelOutboundBuffer buffer = outboundBuffer();
        if (buffer == null) {
            return;
        }
        buffer.setUserDefinedWritability(bit, writable);
        if (writable && isActive()) {
            resumeWrites();
        }
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    protected void doRegister(Promise<Void> promise) {
        state = State.ACTIVE;
        promise.setSuccess(null);
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
        throw new UnsupportedOperationException("a stream channel is bound through its connection");
    }

    @Override
    protected void doDisconnect() {
        close();
    }

    /**
     * Resets the stream with CANCEL unless it ended both ways or was reset already, drops what the
     * pipeline did not read (its credit goes back to the connection) and leaves the multiplexer.
     */
    @Override
    protected void doClose() {
        state = State.CLOSED;
        boolean connectionUp = parent().isActive();
        if (connectionUp && opened && !reset && !(localEnded && remoteEnded)) {
            reset = true;
            multiplex.ctx().write(new Http2ResetFrame(streamId, Http2Error.CANCEL), multiplex.ctx().voidPromise());
        }
        for (Object frame; (frame = inbound.poll()) != null; ) {
            discard(frame);
        }
        if (connectionUp) {
            multiplex.ctx().flush();
        }
        multiplex.childClosed(this);
    }

    @Override
    public String toString() {
        return "Http2StreamChannel(id: " + id().asShortText() + ", stream " + streamId + ", " + state + ')';
    }
}
