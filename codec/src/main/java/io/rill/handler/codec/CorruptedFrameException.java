package io.rill.handler.codec;

/**
 * The input cannot be a valid frame: a negative or overflowing length, a malformed varint. The
 * message quotes the offending value. The stream cannot be resynchronised after this, so the
 * decoders of this package drop what they had buffered; the application should close.
 */
public class CorruptedFrameException extends DecoderException {
    private static final long serialVersionUID = 1L;

    public CorruptedFrameException(String message) {
        super(message);
    }

    public CorruptedFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
