package io.rill.handler.codec;

/**
 * An encoder could not turn a message into its output. Other exceptions thrown by an encoder
 * fail the write's promise wrapped in one of these.
 */
public class EncoderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EncoderException(String message) {
        super(message);
    }

    public EncoderException(String message, Throwable cause) {
        super(message, cause);
    }

    public EncoderException(Throwable cause) {
        super(cause);
    }
}
