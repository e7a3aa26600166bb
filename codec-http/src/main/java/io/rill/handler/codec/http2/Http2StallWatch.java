package io.rill.handler.codec.http2;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Ends a connection whose content waits for flow-control windows the peer never opens (a zero
 * window held, or data dribble: docs/security-cases.md, case H2-13). Armed when content starts
 * waiting, it looks every {@link #TIMEOUT_NANOS}/3 and gives up after {@link #TIMEOUT_NANOS}
 * without the peer opening a window; it disarms once nothing waits.
 */
final class Http2StallWatch {

    /** How long content may wait for windows that do not open. */
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Http2FrameCodec codec;
    /** Bytes now waiting for windows, summed over the streams. */
    private final LongSupplier waiting;
    /** When the peer last opened a window (or content last went out). */
    private long lastProgress;
    private boolean armed;

    Http2StallWatch(Http2FrameCodec codec, LongSupplier waiting) {
        this.codec = codec;
        this.waiting = waiting;
    }

    /** A window opened or content went out. */
    void progress() {
        lastProgress = codec.nanoTime();
    }

    /** Content waits for a window: start watching, unless already. */
    void contentWaits() {
        if (armed) {
            return;
        }
        armed = true;
        lastProgress = codec.nanoTime(); // content starts waiting now
        schedule();
    }

    private void schedule() {
        codec.ctx().executor().schedule(this::check, TIMEOUT_NANOS / 3, TimeUnit.NANOSECONDS);
    }

    private void check() {
        long bytes = waiting.getAsLong();
        if (bytes == 0 || !codec.ctx().channel().isActive()) {
            armed = false;
            return;
        }
        if (codec.nanoTime() - lastProgress > TIMEOUT_NANOS) {
            codec.connectionError(Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, bytes + " bytes waited "
                    + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NANOS) + " s for flow-control windows the peer did not open"));
            return;
        }
        schedule();
    }
}
