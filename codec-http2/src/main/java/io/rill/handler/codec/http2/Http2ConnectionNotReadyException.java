package io.rill.handler.codec.http2;

import java.io.IOException;

/**
 * A connection of an {@link Http2ConnectionPool} that closed before it could carry HTTP/2 streams:
 * the peer chose another protocol by ALPN, the TLS handshake failed, or it closed before its SETTINGS.
 */
public final class Http2ConnectionNotReadyException extends IOException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the connection
     */
    public Http2ConnectionNotReadyException(String message) {
        super(message);
    }
}
