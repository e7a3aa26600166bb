package io.rill.channel;

import jdk.jfr.FlightRecorder;

/**
 * What a channel reports to the observability side when it is first registered and when it
 * closes: its loop's {@link ChannelMetrics} and the connection JFR events. Kept out of
 * {@link AbstractChannel} so the channel's life cycle reads without it.
 */
final class ChannelLifecycle {

    private ChannelLifecycle() {
    }

    /** {@code channel} was registered for the first time. Its event loop. */
    static void registered(Channel channel) {
        boolean accepted = channel.parent() != null;
        ChannelMetrics.of(channel.eventLoop()).channelRegistered(accepted);
        // The event classes are touched only once JFR runs: loading one loads all of JFR.
        if (accepted && FlightRecorder.isInitialized()) {
            ConnectionAcceptedEvent.commit(channel);
        }
    }

    /** {@code channel} is about to close its socket; {@code wasRegistered}: it was counted as registered. Its event loop. */
    static void closing(Channel channel, boolean wasRegistered) {
        if (wasRegistered) {
            ChannelMetrics.of(channel.eventLoop()).channelClosed();
        }
        if (FlightRecorder.isInitialized()) {
            ConnectionClosedEvent.commit(channel);
        }
    }
}
