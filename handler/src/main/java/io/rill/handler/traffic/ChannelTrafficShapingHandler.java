package io.rill.handler.traffic;

import io.rill.channel.ChannelHandlerContext;

/**
 * Limits the read and write bandwidth of one channel. Each channel needs its own instance,
 * whose {@link #trafficCounter()} then counts that channel's traffic. See
 * {@link AbstractTrafficShapingHandler} for how reads and writes are paced.
 *
 * <p>Keeps per-channel state: not sharable.
 */
public class ChannelTrafficShapingHandler extends AbstractTrafficShapingHandler {

    private ShapingState state;

    /**
     * @param writeLimit bytes per second written, 0 for unlimited
     * @param readLimit  bytes per second read, 0 for unlimited
     */
    public ChannelTrafficShapingHandler(long writeLimit, long readLimit) {
        this(writeLimit, readLimit, DEFAULT_CHECK_INTERVAL_MILLIS, DEFAULT_MAX_TIME_MILLIS, DEFAULT_MAX_PENDING_BYTES);
    }

    /**
     * Limits one channel's bandwidth, with the given interval and bounds.
     *
     * @param writeLimit          bytes per second written, 0 for unlimited
     * @param readLimit           bytes per second read, 0 for unlimited
     * @param checkIntervalMillis the length of the {@link TrafficCounter}'s intervals, in milliseconds;
     *                            positive
     * @param maxTimeMillis       longest a read suspension or a queued write waits
     * @param maxPendingBytes     most bytes queued waiting for their turn; a write beyond fails with
     *                            {@link PendingWritesFullException}
     * @throws IllegalArgumentException if an interval, time or bound is not positive
     */
    public ChannelTrafficShapingHandler(long writeLimit, long readLimit, long checkIntervalMillis,
                                        long maxTimeMillis, long maxPendingBytes) {
        super(writeLimit, readLimit, checkIntervalMillis, maxTimeMillis, maxPendingBytes);
    }

    @Override
    ShapingState state(ChannelHandlerContext ctx) {
        if (state == null) {
            state = new ShapingState(ctx);
        }
        return state;
    }

    @Override
    ShapingState existingState(ChannelHandlerContext ctx) {
        return state;
    }

    /**
     * Bytes of delayed writes waiting in the queue.
     *
     * @return the queued bytes; event loop only
     */
    public long queuedWriteBytes() {
        return state == null ? 0 : state.queuedBytes();
    }
}
