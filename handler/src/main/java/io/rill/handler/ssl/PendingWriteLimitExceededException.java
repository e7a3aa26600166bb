package io.rill.handler.ssl;

import javax.net.ssl.SSLException;

/**
 * A write to an {@link SslHandler} was refused because more plaintext than
 * {@link SslHandler#setMaxPendingPlaintextBytes} would be waiting for the TLS handshake. The
 * write's buffer was released; the connection stays open and the writes queued before it stand.
 */
public class PendingWriteLimitExceededException extends SSLException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public PendingWriteLimitExceededException(String message) {
        super(message);
    }
}
