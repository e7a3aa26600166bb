package io.rill.handler.ssl;

import javax.net.ssl.SSLHandshakeException;

/** The TLS handshake did not complete within the handler's handshake timeout; the channel is closed. */
public class SslHandshakeTimeoutException extends SSLHandshakeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public SslHandshakeTimeoutException(String message) {
        super(message);
    }
}
