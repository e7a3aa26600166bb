package io.rill.handler.ssl;

import javax.net.ssl.SSLHandshakeException;

/** The TLS handshake did not complete within the handler's handshake timeout; the channel is closed. */
public class SslHandshakeTimeoutException extends SSLHandshakeException {

    private static final long serialVersionUID = 1L;

    public SslHandshakeTimeoutException(String message) {
        super(message);
    }
}
