package io.rill.handler.codec.http2;

import java.util.ArrayDeque;

import io.rill.buffer.ByteBuf;
import io.rill.util.concurrent.Promise;

/**
 * One open stream's state (RFC 9113 §5.1) and flow-control windows (§6.9), as
 * {@link Http2FrameCodec} keeps them. Streams leave the codec's map once closed; only the highest
 * ids seen remember that lower ones existed.
 */
final class Http2Stream {

    final int id;
    /** Whether we may still send: false after we sent END_STREAM or RST_STREAM. */
    boolean localOpen = true;
    /** Whether the peer may still send: false after it sent END_STREAM. */
    boolean remoteOpen = true;
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
    long expectedContentLength = -1;
    long receivedContentLength;

    /** Content bytes in {@link #pending}; drives the stream's writability. */
    long pendingBytes;
    /** Whether the stream is writable: {@link #pendingBytes} has not crossed the high water mark (or came back below the low). */
    boolean writable = true;

    /** Writes waiting for send window, in order; data and trailers only. Made when first needed: most streams never wait. */
    private ArrayDeque<PendingWrite> pending;

    Http2Stream(int id, long sendWindow, int receiveWindow) {
        this.id = id;
        this.sendWindow = sendWindow;
        this.receiveWindow = receiveWindow;
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
}
