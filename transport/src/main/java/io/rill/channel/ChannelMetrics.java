package io.rill.channel;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of the channels of one event loop: how many were registered and closed (so how many
 * are open), how many of them were accepted, and how often their writability flipped. Plain
 * getters, readable from any thread; a monitoring library polls them (see {@code rill-micrometer}).
 *
 * <p>Get one from {@link EventLoopMetrics#channels()}. Channels on a loop that keeps no metrics of
 * its own (an {@code EmbeddedChannel}'s, say) are counted together in {@link #untracked()}.
 *
 * <p>Counters are {@link LongAdder}s: a writability flip can come from any thread (user-defined
 * writability), and a count per connection or per flip is far from the per-byte hot path.
 */
public final class ChannelMetrics {

    private static final ChannelMetrics UNTRACKED = new ChannelMetrics();

    private final LongAdder registered = new LongAdder();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder writabilityChanges = new LongAdder();

    ChannelMetrics() {
    }

    /** {@return the counts of channels whose event loop keeps no metrics of its own} */
    public static ChannelMetrics untracked() {
        return UNTRACKED;
    }

    /** Where a channel on {@code loop} is counted. */
    static ChannelMetrics of(EventLoop loop) {
        return loop instanceof SingleThreadIoEventLoop io ? io.metrics().channels() : UNTRACKED;
    }

    /** {@return channels open now: registered at least once and not yet closed} Listening channels count too. */
    public long openChannels() {
        return Math.max(0, registered.sum() - closed.sum());
    }

    /** {@return channels registered for the first time since the loop started} */
    public long registeredChannels() {
        return registered.sum();
    }

    /** {@return registered channels that a server channel accepted} */
    public long acceptedChannels() {
        return accepted.sum();
    }

    /** {@return registered channels that have been closed} */
    public long closedChannels() {
        return closed.sum();
    }

    /** {@return times a channel turned unwritable or writable again} A high rate means peers read slower than we write. */
    public long writabilityChanges() {
        return writabilityChanges.sum();
    }

    void channelRegistered(boolean wasAccepted) {
        registered.increment();
        if (wasAccepted) {
            accepted.increment();
        }
    }

    void channelClosed() {
        closed.increment();
    }

    void writabilityChanged() {
        writabilityChanges.increment();
    }

    @Override
    public String toString() {
        return "ChannelMetrics(open: " + openChannels() + ", accepted: " + acceptedChannels() + ", closed: "
                + closedChannels() + ", writability changes: " + writabilityChanges() + ')';
    }
}
