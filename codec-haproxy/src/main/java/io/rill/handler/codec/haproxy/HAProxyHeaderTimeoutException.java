package io.rill.handler.codec.haproxy;

/**
 * The peer did not complete its PROXY protocol header within the decoder's {@code headerTimeoutMillis};
 * the connection is closed.
 */
public class HAProxyHeaderTimeoutException extends HAProxyProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the deadline and the setting that set it
     */
    public HAProxyHeaderTimeoutException(String message) {
        super(message);
    }
}
