package io.rill.handler.codec.http2;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Ticker;

/**
 * Ends a connection whose content waits for flow-control windows the peer never opens (a zero
 * window held, or data dribble: docs/security-cases.md, cases H2-13 and H2-21). Armed when content
 * starts waiting, it looks every {@link #TIMEOUT_NANOS}/3 and gives up after {@link #TIMEOUT_NANOS}
 * in which less than {@link #PROGRESS_BYTES} went out; it disarms once nothing waits.
 *
 * <p>Only content sent counts as progress, in lumps of {@link #PROGRESS_BYTES}: a WINDOW_UPDATE
 * that lets nothing out (on the connection while the stream's window is shut), or a byte at a time
 * every few seconds, would otherwise hold the queued content for ever.
 */
final class Http2StallWatch {

    /** How long content may wait for windows that do not open. */
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** Content that must go out within {@link #TIMEOUT_NANOS} while more waits: 16 KiB, ~550 bytes/s. */
    static final int PROGRESS_BYTES = 16 * 1024;

    /** Bytes now waiting for windows, summed over the streams. */
    private final LongSupplier waiting;
    /** Ends the connection (GOAWAY, then the close). */
    private final Consumer<Http2Exception> connectionError;
    private ChannelHandlerContext ctx;
    private Ticker ticker;
    /** When content started waiting, or last went out {@link #PROGRESS_BYTES} at a time. */
    private long lastProgress;
    /** Bytes sent since {@link #lastProgress}, under {@link #PROGRESS_BYTES}. */
    private long sentSinceProgress;
    private boolean armed;

    Http2StallWatch(LongSupplier waiting, Consumer<Http2Exception> connectionError) {
        this.waiting = waiting;
        this.connectionError = connectionError;
    }

    /** The codec is in a pipeline: the loop to check on, and its clock. */
    void attach(ChannelHandlerContext ctx, Ticker ticker) {
        this.ctx = ctx;
        this.ticker = ticker;
    }

    /** {@code bytes} of content went out. */
    void sent(int bytes) {
        sentSinceProgress += bytes;
        if (sentSinceProgress >= PROGRESS_BYTES) {
            sentSinceProgress = 0;
            lastProgress = ticker.nanoTime();
        }
    }

    /** Content waits for a window: start watching, unless already. */
    void contentWaits() {
        if (armed) {
            return;
        }
        armed = true;
        lastProgress = ticker.nanoTime(); // content starts waiting now
        sentSinceProgress = 0;
        schedule();
    }

    private void schedule() {
        ctx.executor().schedule(this::check, TIMEOUT_NANOS / 3, TimeUnit.NANOSECONDS);
    }

    private void check() {
        long bytes = waiting.getAsLong();
        if (bytes == 0 || !ctx.channel().isActive()) {
            armed = false;
            return;
        }
        if (ticker.nanoTime() - lastProgress > TIMEOUT_NANOS) {
            connectionError.accept(Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, bytes + " bytes waited "
                    + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NANOS) + " s for flow-control windows the peer did not open"
                    + " (less than " + PROGRESS_BYTES + " bytes went out)"));
            return;
        }
        schedule();
    }
}
