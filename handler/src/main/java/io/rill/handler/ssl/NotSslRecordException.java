package io.rill.handler.ssl;

import javax.net.ssl.SSLException;

/**
 * The peer sent bytes that are not a TLS record where one was expected: plaintext on a TLS port,
 * garbage, an SSLv2-format hello, or a record longer than TLS allows (RFC 5246 §6.2.3). The
 * channel is closed; the bytes are never handed to the {@code SSLEngine}.
 */
public class NotSslRecordException extends SSLException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public NotSslRecordException(String message) {
        super(message);
    }
}
