package io.rill.handler.codec.http2;

import java.util.concurrent.TimeUnit;

import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.util.concurrent.ScheduledFuture;
import io.rill.util.concurrent.Ticker;

/**
 * The {@link HttpServerTimeouts} of an HTTP/2 server connection, the limits HTTP/1.1 puts on a
 * client, per connection and per stream:
 *
 * <ul>
 * <li>idle: a connection with no open stream for this long is closed gracefully (GOAWAY
 *     NO_ERROR). Frames that ask for nothing (PING and the like) do not count as activity.</li>
 * <li>header: a field block (HEADERS and its CONTINUATION frames) must be whole this long after
 *     the connection was first seen inside it; since nothing else may be sent meanwhile (RFC 9113
 *     §6.10) and HPACK state must stay in step, its expiry ends the connection (GOAWAY
 *     ENHANCE_YOUR_CALM).</li>
 * <li>body: a request's content, from its HEADERS to its END_STREAM, extended by a second for
 *     each {@code minBodyRate} bytes but never past {@code body} from the last DATA; on expiry
 *     the stream ends: {@code 408} if no response began, then RST_STREAM (RFC 9113 §8.1), and the
 *     application reads an {@link Http2ResetFrame}. Time during which the stream's or the
 *     connection's receive window is shut does not count: then the server holds the client back.</li>
 * </ul>
 *
 * <p>One check a quarter of the shortest limit (at least every 250 ms, at most every 5 s) finds
 * what expired, so a limit holds to within that; no timer per stream.
 *
 * <p>Its port: the channel's context and the loop's clock (attached once the codec is in a
 * pipeline), and the {@link Expiry} it reports to.
 */
final class Http2Timeouts {

    /** What a check found; the codec wires each to the part that acts on it. */
    interface Expiry {

        /** The stream whose field block the reader is inside, or 0. */
        int unfinishedFieldBlock();

        /** No stream was open for {@code idleNanos}: the graceful close. */
        void idle(long idleNanos);

        /** A field block took longer than the header timeout: the connection ends. */
        void connectionError(Http2Exception e);

        /** Ends the streams whose request content is overdue at {@code now}. */
        void bodiesDue(long now, long bodyNanos);
    }

    private final Expiry expiry;
    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private final long idleNanos;
    private final long headerNanos;
    private final long bodyNanos;
    /** Nanoseconds a received byte extends the body deadline by: 1 s / minBodyRate. */
    private final long nanosPerBodyByte;
    private final long periodNanos;

    private ScheduledFuture<?> check;
    /** When the connection last had no stream open (its start, or the last stream's end); -1 while streams are open. */
    private long idleSince;
    /** The stream whose field block the last check found unfinished, or 0. */
    private int watchedBlock;
    private long watchedBlockSince;

    Http2Timeouts(HttpServerTimeouts timeouts, Expiry expiry) {
        this.expiry = expiry;
        this.idleNanos = nanos(timeouts.idle());
        this.headerNanos = nanos(timeouts.header());
        this.bodyNanos = nanos(timeouts.body());
        this.nanosPerBodyByte = TimeUnit.SECONDS.toNanos(1) / timeouts.minBodyRate();
        long shortest = Long.MAX_VALUE;
        for (long limit : new long[] {idleNanos, headerNanos, bodyNanos}) {
            if (limit > 0) {
                shortest = Math.min(shortest, limit);
            }
        }
        this.periodNanos = shortest == Long.MAX_VALUE ? 0
                : Math.max(TimeUnit.MILLISECONDS.toNanos(250), Math.min(TimeUnit.SECONDS.toNanos(5), shortest / 4));
    }

    private static long nanos(java.time.Duration d) {
        return d == null ? 0 : d.toNanos();
    }

    /** The codec is in a pipeline: the loop to check on, and its clock. */
    void attach(ChannelHandlerContext ctx, Ticker ticker) {
        this.ctx = ctx;
        this.ticker = ticker;
    }

    /** The connection started: the idle clock runs from now. */
    void start() {
        idleSince = ticker.nanoTime();
        if (periodNanos > 0 && check == null) {
            schedule();
        }
    }

    void stop() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    void streamsOpen(boolean any) {
        if (any) {
            idleSince = -1;
        } else if (idleSince < 0) {
            idleSince = ticker.nanoTime();
        }
    }

    /** A request HEADERS without END_STREAM: its body is now due. */
    void bodyExpected(Http2Stream stream) {
        if (bodyNanos > 0) {
            stream.bodyDeadline = ticker.nanoTime() + bodyNanos;
        }
    }

    /** {@code bytes} of the stream's content arrived. */
    void bodyReceived(Http2Stream stream, int bytes) {
        if (stream.bodyDeadline != 0) {
            long now = ticker.nanoTime();
            stream.bodyDeadline = Math.min(stream.bodyDeadline + bytes * nanosPerBodyByte, now + bodyNanos);
        }
    }

    private void schedule() {
        check = ctx.executor().schedule(this::check, periodNanos, TimeUnit.NANOSECONDS);
    }

    private void check() {
        check = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        long now = ticker.nanoTime();
        if (headerNanos > 0 && fieldBlockTooSlow(now)) {
            return;
        }
        if (idleNanos > 0 && idleSince >= 0 && now - idleSince >= idleNanos) {
            expiry.idle(idleNanos);
            return;
        }
        if (bodyNanos > 0) {
            expiry.bodiesDue(now, bodyNanos);
        }
        schedule();
    }

    private boolean fieldBlockTooSlow(long now) {
        int block = expiry.unfinishedFieldBlock();
        if (block == 0 || block != watchedBlock) {
            watchedBlock = block;
            watchedBlockSince = now;
            return false;
        }
        if (now - watchedBlockSince < headerNanos) {
            return false;
        }
        expiry.connectionError(Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, "stream " + block
                + "'s field block was not complete within " + TimeUnit.NANOSECONDS.toSeconds(headerNanos)
                + " s (the header timeout)"));
        return true;
    }
}
