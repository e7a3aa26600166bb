package io.rill.handler.codec.http;

import java.util.concurrent.TimeUnit;

import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.AbstractScheduledEventExecutor;
import io.rill.util.concurrent.ScheduledFuture;
import io.rill.util.concurrent.Ticker;

/**
 * The request-head timeout of {@link HttpServerCodec}: a connection must complete a request head
 * within the timeout of opening, and again of the end of the last response it was waiting for.
 * An idle keep-alive connection and a client sending its head a byte at a time (Slowloris) are
 * both closed; a slow body is not timed here.
 *
 * <p>One timer per connection, moved lazily: serving a request only flips a flag and sets a deadline
 * field, and the timer, when it fires, either closes the connection or sleeps until the current
 * deadline. A busy connection thus costs no timer operation per request. Loop-confined.
 */
final class RequestHeadDeadline {

    private static final InternalLogger LOG = InternalLogger.get(HttpServerCodec.class);

    private final long timeoutNanos;
    /** When a request head must be complete, unless {@link #serving}. */
    private long deadline;
    /** A request head arrived and its response has not ended: nothing is timed. */
    private boolean serving;
    private ScheduledFuture<?> timer;
    private boolean stopped;

    RequestHeadDeadline(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** Starts waiting for a head: the connection opened, or its last pending response ended. */
    void await(ChannelHandlerContext ctx) {
        if (stopped) {
            return;
        }
        serving = false;
        deadline = clock(ctx).nanoTime() + timeoutNanos;
        if (timer == null) {
            schedule(ctx, timeoutNanos);
        }
    }

    /** A request head arrived: nothing is timed until its response ends. */
    void headArrived() {
        serving = true;
    }

    /** The connection is gone or the codec removed: the timer is cancelled. */
    void stop() {
        stopped = true;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** The loop's clock, which is what its timers are measured with (a manual one in tests). */
    private static Ticker clock(ChannelHandlerContext ctx) {
        return ctx.executor() instanceof AbstractScheduledEventExecutor loop ? loop.ticker() : Ticker.systemTicker();
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        timer = ctx.executor().schedule(() -> expire(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void expire(ChannelHandlerContext ctx) {
        timer = null;
        if (stopped || serving || !ctx.channel().isOpen()) {
            return; // a request is being served (its response re-arms), or the connection is gone
        }
        long left = deadline - clock(ctx).nanoTime();
        if (left > 0) {
            schedule(ctx, left);
            return;
        }
        LOG.debug("Closing {}: no complete request head within {} ms", ctx.channel(),
                TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        ctx.close();
    }
}
