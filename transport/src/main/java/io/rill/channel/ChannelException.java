package io.rill.channel;

/** A channel operation failed for a reason other than plain I/O. */
public class ChannelException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ChannelException(String message) {
        super(message);
    }

    public ChannelException(String message, Throwable cause) {
        super(message, cause);
    }

    public ChannelException(Throwable cause) {
        super(cause);
    }
}
