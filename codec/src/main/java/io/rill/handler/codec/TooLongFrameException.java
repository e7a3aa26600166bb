package io.rill.handler.codec;

/**
 * A frame (or line, or header) is longer than the decoder's configured maximum. The message
 * quotes both the length seen and the limit. Whether the channel keeps working afterwards is up
 * to the decoder: the frame decoders of this package discard the oversized frame and go on.
 */
public class TooLongFrameException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what happened, naming the limit or the input at fault
     */
    public TooLongFrameException(String message) {
        super(message);
    }
}
