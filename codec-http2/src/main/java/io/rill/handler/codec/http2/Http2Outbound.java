package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Coalesces the frames of one flush into as few buffers as possible: frame headers, control
 * frames, field blocks and small DATA payloads are appended to one buffer; a large DATA payload
 * goes out as its own buffer (no copy) right after the bytes before it. The promises of what was
 * appended complete when the buffer holding it is written.
 */
final class Http2Outbound {

    /** DATA payloads up to this size are copied into the shared buffer rather than written alone. */
    static final int COPY_THRESHOLD = 1024;
    private static final int BUFFER_SIZE = 4096;
    /** Bounds the presized promise list, so one huge flush does not make every later list huge. */
    private static final int MAX_PRESIZED_WAITING = 1024;

    private final Http2FrameCodec codec;
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

    Http2Outbound(Http2FrameCodec codec) {
        this.codec = codec;
    }

    /** The shared buffer, created on demand; append frames to it. */
    ByteBuf buffer() {
        if (buffer == null) {
            buffer = codec.ctx().alloc().buffer(BUFFER_SIZE);
        }
        return buffer;
    }

    /** Completes {@code promise} when the bytes appended so far are written. */
    void completeWithBuffer(Promise<Void> promise) {
        if (promise == codec.ctx().voidPromise()) {
            voidWaiting = true;
            return;
        }
        if (waiting == null) {
            waiting = new ArrayList<>(lastWaitingCount);
        }
        waiting.add(promise);
    }

    /** Writes {@code payload} after what is buffered; {@code promise} completes with it. Takes ownership. */
    void writeLarge(ByteBuf payload, Promise<Void> promise) {
        passBuffer();
        written = true;
        codec.ctx().write(payload, promise);
    }

    /** Passes the buffered bytes to the next handler and flushes the channel. */
    void flush() {
        passBuffer();
        if (written) {
            written = false;
            codec.ctx().flush();
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
                promises.add(codec.ctx().voidPromise());
            }
        } else if (toPipeline && out.isReadable()) {
            written = true;
            codec.ctx().write(out, codec.ctx().voidPromise());
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
        Future<Void> f = codec.ctx().write(out);
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

    /** Drops what is buffered (the channel is gone) and fails its promises. */
    void discard(Throwable cause) {
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
            codec.ctx().voidPromise().tryFailure(cause);
        }
    }
}
