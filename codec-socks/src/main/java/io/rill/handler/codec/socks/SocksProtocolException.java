package io.rill.handler.codec.socks;

import io.rill.handler.codec.CorruptedFrameException;

/**
 * A SOCKS message broke the protocol: a wrong version byte, a non-zero reserved byte, an unknown
 * address type, a zero length where one is required, a host name with a non-printable byte. The
 * message quotes the offending value.
 */
public class SocksProtocolException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong, quoting the input
     */
    public SocksProtocolException(String message) {
        super(message);
    }
}
