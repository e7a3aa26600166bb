package io.rill.handler.traffic;

import io.rill.channel.ChannelException;

/**
 * A write was refused because the traffic shaper's queue of delayed writes for the channel
 * was full: the application writes faster than the limit allows and did not wait for its
 * earlier writes to complete.
 */
public final class PendingWritesFullException extends ChannelException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public PendingWritesFullException(String message) {
        super(message);
    }
}
