package io.rill.handler.codec.redis;

import io.rill.handler.codec.DecoderException;

/**
 * Bytes that are not RESP: an unknown type byte, a length or number that is not one, a missing
 * CRLF, an unbalanced quote in an inline command. The message quotes the offending input. The
 * decoder that throws it closes the channel: a RESP stream cannot be resynchronised.
 */
public class RedisCodecException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong, quoting the input
     */
    public RedisCodecException(String message) {
        super(message);
    }
}
