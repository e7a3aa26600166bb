package io.rill.handler.codec.haproxy;

/**
 * A PROXY protocol header is longer than allowed: a version 1 line past 107 bytes, or a version 2
 * header whose length field passes the decoder's {@code maxHeaderLength}. The message names the limit.
 */
public class HAProxyHeaderTooLongException extends HAProxyProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the length seen and the limit
     */
    public HAProxyHeaderTooLongException(String message) {
        super(message);
    }
}
