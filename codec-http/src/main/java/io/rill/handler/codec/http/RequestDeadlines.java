package io.rill.handler.codec.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.AbstractScheduledEventExecutor;
import io.rill.util.concurrent.ScheduledFuture;
import io.rill.util.concurrent.Ticker;

/**
 * {@link HttpServerTimeouts} for one connection: where the client is in its request, and when
 * it must have moved on.
 * <pre>
 *   WAITING --first byte--> HEAD --head complete--> BODY --body complete--> SERVING
 *      ^                     idle: close quietly     header / body: 408          |
 *      +------------------------- last response ends ---------------------------+
 * </pre>
 * One timer per connection, moved lazily: serving a request sets a phase and a deadline field,
 * and the timer, when it fires, either acts or sleeps until the current deadline, but never
 * longer than the shortest limit. A busy connection thus costs a clock read per read burst and
 * a timer task per shortest limit, and no timer operation per request. Loop-confined.
 */
final class RequestDeadlines {

    enum Phase { WAITING, HEAD, BODY, SERVING }

    /** What the codec does when a deadline passes. */
    interface Expiry {
        /** The client took too long in {@code phase} (never SERVING). */
        void expired(ChannelHandlerContext ctx, Phase phase, Duration limit);
    }

    private final long idleNanos;
    private final long headerNanos;
    private final long bodyNanos;
    /**
     * The timer never sleeps longer than the shortest limit: a phase entered later then always
     * has its deadline after the timer's, so moving to a stricter phase needs no new timer.
     */
    private final long maxSleepNanos;
    /** Nanoseconds of body deadline each byte received buys. */
    private final double nanosPerBodyByte;
    private final Expiry expiry;

    private Phase phase = Phase.SERVING;
    /** When the current phase must have ended; meaningless in SERVING or for a phase without a limit. */
    private long deadline;
    private ScheduledFuture<?> timer;
    private boolean stopped;
    /** In WAITING: {@code totalBytesWritten} when last looked at; a change is the client reading. */
    private long lastOutputMark;

    RequestDeadlines(HttpServerTimeouts timeouts, Expiry expiry) {
        this.idleNanos = nanos(timeouts.idle());
        this.headerNanos = nanos(timeouts.header());
        this.bodyNanos = nanos(timeouts.body());
        long shortest = Long.MAX_VALUE;
        for (long n : new long[] {idleNanos, headerNanos, bodyNanos}) {
            if (n > 0) {
                shortest = Math.min(shortest, n);
            }
        }
        this.maxSleepNanos = shortest;
        this.nanosPerBodyByte = TimeUnit.SECONDS.toNanos(1) / (double) timeouts.minBodyRate();
        this.expiry = expiry;
    }

    private static long nanos(Duration d) {
        return d == null ? 0 : d.toNanos();
    }

    /** Nothing is unanswered: the connection waits for the first byte of its next request. */
    void waiting(ChannelHandlerContext ctx) {
        lastOutputMark = ctx.channel().totalBytesWritten();
        enter(ctx, Phase.WAITING, idleNanos);
    }

    /** A request is complete and waits for its answer: nothing is timed. */
    void serving() {
        if (!stopped) {
            phase = Phase.SERVING;
        }
    }

    /** Part of a request head has arrived; its time runs from the first byte. */
    void headInProgress(ChannelHandlerContext ctx) {
        if (phase != Phase.HEAD) {
            enter(ctx, Phase.HEAD, headerNanos);
        }
    }

    /** {@code bytes} more of a request body arrived (0 when it just began). */
    void bodyInProgress(ChannelHandlerContext ctx, long bytes) {
        if (phase != Phase.BODY) {
            enter(ctx, Phase.BODY, bodyNanos);
        } else if (bodyNanos > 0 && bytes > 0) {
            long now = clock(ctx).nanoTime();
            deadline = Math.min(deadline + (long) (bytes * nanosPerBodyByte), now + bodyNanos);
        }
    }

    /** The connection is gone or the codec removed: the timer is cancelled. */
    void stop() {
        stopped = true;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void enter(ChannelHandlerContext ctx, Phase next, long limitNanos) {
        if (stopped) {
            return;
        }
        phase = next;
        if (limitNanos == 0) {
            return;
        }
        deadline = clock(ctx).nanoTime() + limitNanos;
        if (timer == null) {
            schedule(ctx, Math.min(limitNanos, maxSleepNanos));
        }
    }

    private long limitOf(Phase p) {
        return switch (p) {
            case WAITING -> idleNanos;
            case HEAD -> headerNanos;
            case BODY -> bodyNanos;
            case SERVING -> 0;
        };
    }

    /** The loop's clock, which is what its timers are measured with (a manual one in tests). */
    private static Ticker clock(ChannelHandlerContext ctx) {
        return ctx.executor() instanceof AbstractScheduledEventExecutor loop ? loop.ticker() : Ticker.systemTicker();
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        timer = ctx.executor().schedule(() -> fire(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void fire(ChannelHandlerContext ctx) {
        timer = null;
        long limit = limitOf(phase);
        if (stopped || limit == 0 || !ctx.channel().isOpen()) {
            return; // nothing timed now: whoever enters a timed phase re-arms
        }
        long now = clock(ctx).nanoTime();
        Channel ch = ctx.channel();
        if (phase != Phase.WAITING && !ch.config().isReadingAutomatically()) {
            deadline = Math.max(deadline, now + limit); // we stopped reading: the client cannot be late
        } else if (phase == Phase.WAITING && ch.totalBytesWritten() != lastOutputMark) {
            // The client took output since (the last response draining): that is progress. The
            // idle time counts from the client's last move in either direction, not from when the
            // response was queued; a client that stops reading altogether is closed.
            lastOutputMark = ch.totalBytesWritten();
            deadline = Math.max(deadline, now + limit);
        }
        long left = deadline - now;
        if (left > 0) {
            schedule(ctx, Math.min(left, maxSleepNanos));
            return;
        }
        Phase late = phase;
        phase = Phase.SERVING; // reported once
        expiry.expired(ctx, late, Duration.ofNanos(limit));
    }
}
