package io.rill.handler.codec.memcache.text;

import io.rill.handler.codec.DecoderException;

/**
 * A text-protocol line or data block that is malformed or over one of the decoder's bounds. The
 * message quotes the bad input (cut short) or names the bound.
 */
public final class TextMemcacheDecoderException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with its message.
     *
     * @param message what was wrong
     */
    public TextMemcacheDecoderException(String message) {
        super(message);
    }
}
