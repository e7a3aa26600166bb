package io.rill.handler.codec.socks;

import io.rill.handler.codec.TooLongFrameException;

/**
 * A NUL-terminated SOCKS4 field (user id or 4a host name) ran past its decoder's cap without its
 * terminator. The message names the field and the limit that enforced it.
 */
public class SocksFieldTooLongException extends TooLongFrameException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the field, and the limit it exceeded
     */
    public SocksFieldTooLongException(String message) {
        super(message);
    }
}
