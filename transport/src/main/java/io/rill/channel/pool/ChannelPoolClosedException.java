package io.rill.channel.pool;

/** An acquire on a pool that was closed, or still pending when it was closed. */
public final class ChannelPoolClosedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the pool
     */
    public ChannelPoolClosedException(String message) {
        super(message);
    }
}
