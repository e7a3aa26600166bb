package io.rill.handler.traffic;

import io.rill.channel.AttributeKey;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Limits the combined read and write bandwidth of every channel it is added to: create one
 * instance and add it to each pipeline (e.g. in a server's child initializer). The limits and
 * the {@link #trafficCounter()} are shared; each channel keeps its own queue of delayed writes
 * and its own read suspension, so the channels take turns on the shared allowance in the
 * order they use it. See {@link AbstractTrafficShapingHandler} for the pacing itself.
 *
 * <p>All channels must run on executors that share a clock (every event loop reads
 * {@link System#nanoTime()}); two {@code EmbeddedChannel}s each have their own manual clock.
 */
@ChannelHandler.Sharable
public class GlobalTrafficShapingHandler extends AbstractTrafficShapingHandler {

    /** Per-channel state. One global shaper per channel: a second one would find the first one's state. */
    private static final AttributeKey<ShapingState> STATE = AttributeKey.valueOf("rill.globalTrafficShaping");

    /**
     * @param writeLimit bytes per second written by all channels together, 0 for unlimited
     * @param readLimit  bytes per second read by all channels together, 0 for unlimited
     */
    public GlobalTrafficShapingHandler(long writeLimit, long readLimit) {
        this(writeLimit, readLimit, DEFAULT_CHECK_INTERVAL_MILLIS, DEFAULT_MAX_TIME_MILLIS, DEFAULT_MAX_PENDING_BYTES);
    }

    /**
     * Limits the combined bandwidth of every channel it is added to, with the given interval and bounds.
     *
     * @param writeLimit                bytes per second written by all channels together, 0 for unlimited
     * @param readLimit                 bytes per second read by all channels together, 0 for unlimited
     * @param checkIntervalMillis       the length of the {@link TrafficCounter}'s intervals, in milliseconds;
     *                            positive
     * @param maxTimeMillis             longest a read suspension or a queued write waits
     * @param maxPendingBytesPerChannel most bytes each channel may queue waiting for its turn; a write
     *                                  beyond fails with {@link PendingWritesFullException}
     * @throws IllegalArgumentException if an interval, time or bound is not positive
     */
    public GlobalTrafficShapingHandler(long writeLimit, long readLimit, long checkIntervalMillis,
                                       long maxTimeMillis, long maxPendingBytesPerChannel) {
        super(writeLimit, readLimit, checkIntervalMillis, maxTimeMillis, maxPendingBytesPerChannel);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // Made eagerly, so a second global shaper added later finds it.
        if (!state(ctx).belongsTo(this)) {
            throw new IllegalStateException("a channel takes one GlobalTrafficShapingHandler, " + ctx.channel()
                    + " has another one already");
        }
    }

    @Override
    ShapingState state(ChannelHandlerContext ctx) {
        ShapingState state = existingState(ctx);
        if (state == null) {
            state = new ShapingState(ctx);
            ctx.channel().attr(STATE).set(state);
        }
        return state;
    }

    @Override
    ShapingState existingState(ChannelHandlerContext ctx) {
        return ctx.channel().hasAttr(STATE) ? ctx.channel().attr(STATE).get() : null;
    }
}
