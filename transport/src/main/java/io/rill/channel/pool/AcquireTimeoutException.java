package io.rill.channel.pool;

import java.util.concurrent.TimeoutException;

/** An acquire that waited {@code acquireTimeout} for a free connection and got none. */
public final class AcquireTimeoutException extends TimeoutException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the timeout and its value
     */
    public AcquireTimeoutException(String message) {
        super(message);
    }
}
