package io.rill.channel;

import java.nio.channels.ClosedChannelException;

/** A {@link ClosedChannelException} that says which channel and which operation, since the JDK's carries no message. */
public final class ChannelClosedException extends ClosedChannelException {

    private static final long serialVersionUID = 1L;

    /** Names the channel and the operation that found it closed. */
    private final String message;

    /**
     * An exception with its message.
     *
     * @param message the channel and the operation that found it closed
     */
    public ChannelClosedException(String message) {
        this.message = message;
    }

    @Override
    public String getMessage() {
        return message;
    }
}
