package io.rill.handler.codec;

/**
 * The input cannot be a valid frame: a negative or overflowing length, a malformed varint. The
 * message quotes the offending value. The stream cannot be resynchronised after this, so the
 * decoders of this package drop what they had buffered; the application should close.
 */
public class CorruptedFrameException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what went wrong, quoting the input where there is one
     */
    public CorruptedFrameException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its message and cause.
     *
     * @param message what went wrong
     * @param cause   the failure behind it
     */
    public CorruptedFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
