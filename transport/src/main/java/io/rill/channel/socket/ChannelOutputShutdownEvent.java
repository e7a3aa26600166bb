package io.rill.channel.socket;

/** User event: the channel's output was shut down (FIN sent); writes are refused from now on. */
public final class ChannelOutputShutdownEvent {

    /** The one instance; the event carries no state. */
    public static final ChannelOutputShutdownEvent INSTANCE = new ChannelOutputShutdownEvent();

    private ChannelOutputShutdownEvent() {
    }

    @Override
    public String toString() {
        return "ChannelOutputShutdownEvent";
    }
}
