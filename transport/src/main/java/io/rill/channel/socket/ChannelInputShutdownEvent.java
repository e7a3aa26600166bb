package io.rill.channel.socket;

/**
 * User event: the peer ended its stream (or {@link DuplexChannel#shutdownInput()} was called) and
 * {@code ALLOW_HALF_CLOSURE} kept the channel open, so it can still write.
 */
public final class ChannelInputShutdownEvent {

    /** The one instance; the event carries no state. */
    public static final ChannelInputShutdownEvent INSTANCE = new ChannelInputShutdownEvent();

    private ChannelInputShutdownEvent() {
    }

    @Override
    public String toString() {
        return "ChannelInputShutdownEvent";
    }
}
