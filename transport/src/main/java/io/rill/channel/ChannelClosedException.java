package io.rill.channel;

import java.nio.channels.ClosedChannelException;

/** A {@link ClosedChannelException} that says which channel and which operation, since the JDK's carries no message. */
public final class ChannelClosedException extends ClosedChannelException {

    private static final long serialVersionUID = 1L;

    private final String message;

    public ChannelClosedException(String message) {
        this.message = message;
    }

    @Override
    public String getMessage() {
        return message;
    }
}
