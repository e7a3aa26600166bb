package io.rill.channel.pool;

/** An acquire refused because {@code maxPendingAcquires} acquires already wait for a connection. */
public final class PendingAcquireLimitException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the limit and its value
     */
    public PendingAcquireLimitException(String message) {
        super(message);
    }
}
