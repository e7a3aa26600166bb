package io.rill.channel;

/** A channel operation failed for a reason other than plain I/O. */
public class ChannelException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message.
     *
     * @param message what failed, naming the channel where it helps
     */
    public ChannelException(String message) {
        super(message);
    }

    /**
     * An exception with a message and a cause.
     *
     * @param message what failed, naming the channel where it helps
     * @param cause the underlying failure
     */
    public ChannelException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * An exception wrapping {@code cause}.
     *
     * @param cause the underlying failure
     */
    public ChannelException(Throwable cause) {
        super(cause);
    }
}
