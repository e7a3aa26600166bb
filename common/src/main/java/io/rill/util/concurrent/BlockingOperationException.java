package io.rill.util.concurrent;

/**
 * Thrown when an event loop thread would block waiting for a result that only it can produce.
 */
public class BlockingOperationException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message names the blocking call and the executor it was made on
     */
    public BlockingOperationException(String message) {
        super(message);
    }
}
