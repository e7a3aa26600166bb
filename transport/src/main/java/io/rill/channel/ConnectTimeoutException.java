package io.rill.channel;

import java.net.ConnectException;

/** A connect did not complete within {@link ChannelOption#CONNECT_TIMEOUT_MILLIS}. */
public class ConnectTimeoutException extends ConnectException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception naming the address and the timeout.
     *
     * @param message the address and the timeout that passed
     */
    public ConnectTimeoutException(String message) {
        super(message);
    }
}
