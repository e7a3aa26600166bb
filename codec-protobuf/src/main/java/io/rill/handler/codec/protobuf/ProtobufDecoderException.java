package io.rill.handler.codec.protobuf;

import io.rill.handler.codec.DecoderException;

/** A frame that is not a valid message of the decoder's type, or nests deeper than its recursion limit. */
public final class ProtobufDecoderException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the type and what was wrong
     * @param cause protobuf's own exception
     */
    public ProtobufDecoderException(String message, Throwable cause) {
        super(message, cause);
    }
}
