package io.rill.handler.codec.memcache.binary;

import io.rill.handler.codec.DecoderException;

/** A header that is not a binary memcache header, or whose lengths do not fit its bounds. */
public final class MemcacheDecoderException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with its message.
     *
     * @param message what was wrong, naming the bound where one was passed
     */
    public MemcacheDecoderException(String message) {
        super(message);
    }
}
