package io.rill.handler.codec.haproxy;

import io.rill.handler.codec.DecoderException;

/**
 * A PROXY protocol header was malformed: not a PROXY header, a bad version, command, family, address or port, a length that does not fit, a TLV running past its header, a CRC32c that does not match. The message says which.
 */
public class HAProxyProtocolException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong, naming the limit or quoting the input
     */
    public HAProxyProtocolException(String message) {
        super(message);
    }
}
