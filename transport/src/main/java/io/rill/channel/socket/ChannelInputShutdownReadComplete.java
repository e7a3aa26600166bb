package io.rill.channel.socket;

/**
 * User event fired once, after {@link ChannelInputShutdownEvent}, when no read will deliver data
 * again: the last moment a decoder can flush what it buffered.
 */
public final class ChannelInputShutdownReadComplete {

    /** The one instance; the event carries no state. */
    public static final ChannelInputShutdownReadComplete INSTANCE = new ChannelInputShutdownReadComplete();

    private ChannelInputShutdownReadComplete() {
    }

    @Override
    public String toString() {
        return "ChannelInputShutdownReadComplete";
    }
}
