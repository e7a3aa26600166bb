package io.rill.handler.codec.stomp;

import io.rill.handler.codec.DecoderException;

/** Bytes that are not a STOMP 1.2 frame, or a frame over one of the decoder's bounds. */
public final class StompDecoderException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with its message.
     *
     * @param message what was wrong, naming the bound where one was passed
     */
    public StompDecoderException(String message) {
        super(message);
    }
}
