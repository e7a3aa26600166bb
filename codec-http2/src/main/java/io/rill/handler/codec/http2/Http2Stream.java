package io.rill.handler.codec.http2;

import java.util.ArrayDeque;

import io.rill.buffer.ByteBuf;
import io.rill.util.ObjectPool;
import io.rill.util.concurrent.Promise;

/**
 * One open stream's state (RFC 9113 §5.1) and flow-control windows (§6.9), as
 * {@link Http2FrameCodec} keeps them. Streams leave the codec's map once closed; only the highest
 * ids seen remember that lower ones existed.
 *
 * <p>One is needed per request, so closed ones go back to a per-thread pool: a stream that never
 * queued a write is referenced by its connection's map alone, and once out of it by nothing.
 * A stream that did queue may still sit in the send side's blocked list, so it is left to the
 * garbage collector.
 */
final class Http2Stream {

    private static final ObjectPool<Http2Stream> POOL = ObjectPool.newPool(Http2Stream::new);

    private final ObjectPool.Handle<Http2Stream> handle;

    int id;
    /** Whether we may still send: false after we sent END_STREAM or RST_STREAM. */
    boolean localOpen;
    /** Whether the peer may still send: false after it sent END_STREAM. */
    boolean remoteOpen;
    /** Whether the first (non-informational) HEADERS went out / came in. */
    boolean headersSent;
    boolean headersReceived;
    /** On a client: the request was HEAD, so the response's content-length announces nothing to come. */
    boolean requestWasHead;

    /** How many bytes we may still send on this stream; may go negative after a SETTINGS change. */
    long sendWindow;
    /** How many bytes the peer may still send before we return credit. */
    int receiveWindow;
    /** Bytes the application consumed that we have not yet returned with WINDOW_UPDATE. */
    int consumedNotReturned;

    /** content-length of the received message, or -1; checked against the DATA received (§8.1.1). */
    long expectedContentLength;
    long receivedContentLength;
    /** When the request content must be complete ({@link Http2Timeouts}, nanoTime); 0 when not timed. */
    long bodyDeadline;

    /** Content bytes in {@link #pending}; drives the stream's writability. */
    long pendingBytes;
    /** Whether the stream is writable: {@link #pendingBytes} has not crossed the high water mark (or came back below the low). */
    boolean writable;

    /** Writes waiting for send window, in order; data and trailers only. Made when first needed: most streams never wait. */
    private ArrayDeque<PendingWrite> pending;

    private Http2Stream(ObjectPool.Handle<Http2Stream> handle) {
        this.handle = handle;
    }

    /** A new open stream, taken from the pool: every field is set here, whatever its last use left. */
    static Http2Stream open(int id, long sendWindow, int receiveWindow) {
        Http2Stream s = POOL.get();
        s.id = id;
        s.localOpen = true;
        s.remoteOpen = true;
        s.headersSent = false;
        s.headersReceived = false;
        s.requestWasHead = false;
        s.sendWindow = sendWindow;
        s.receiveWindow = receiveWindow;
        s.consumedNotReturned = 0;
        s.expectedContentLength = -1;
        s.receivedContentLength = 0;
        s.bodyDeadline = 0;
        s.pendingBytes = 0;
        s.writable = true;
        s.pending = null;
        return s;
    }

    /**
     * Hands a closed stream, already out of its connection's map, back to the pool unless it ever
     * queued a write (see the class comment). The caller must not touch it afterwards.
     */
    void recycleIfNeverQueued() {
        if (pending == null) {
            handle.recycle(this);
        }
    }

    boolean isClosed() {
        return !localOpen && !remoteOpen;
    }

    boolean hasPending() {
        return pending != null && !pending.isEmpty();
    }

    void addPending(PendingWrite write) {
        if (pending == null) {
            pending = new ArrayDeque<>(2);
        }
        pending.add(write);
    }

    /** The oldest waiting write, or null. */
    PendingWrite firstPending() {
        return pending == null ? null : pending.peek();
    }

    /** Removes and returns the oldest waiting write, or null. */
    PendingWrite pollPending() {
        return pending == null ? null : pending.poll();
    }

    /** A DATA frame (content, possibly end of stream) or trailers waiting to be sent. */
    static final class PendingWrite {
        final ByteBuf data;
        final Http2Headers trailers;
        final boolean endStream;
        final Promise<Void> promise;

        PendingWrite(ByteBuf data, Http2Headers trailers, boolean endStream, Promise<Void> promise) {
            this.data = data;
            this.trailers = trailers;
            this.endStream = endStream;
            this.promise = promise;
        }
    }

    /** Fails what still waits to be sent; {@code cause} null means the stream simply closed. */
    void failPending(Throwable cause) {
        pendingBytes = 0;
        if (!hasPending()) {
            return; // the usual close: made here, the exception and its stack trace cost more than the whole request
        }
        Throwable why = cause != null ? cause : new IllegalStateException("stream " + id + " closed");
        for (PendingWrite w; (w = pollPending()) != null; ) {
            if (w.data != null) {
                w.data.release();
            }
            w.promise.tryFailure(why);
        }
    }
}
