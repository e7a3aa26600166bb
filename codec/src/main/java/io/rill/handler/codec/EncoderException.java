package io.rill.handler.codec;

/**
 * An encoder could not turn a message into its output. Other exceptions thrown by an encoder
 * fail the write's promise wrapped in one of these.
 */
public class EncoderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what went wrong, quoting the input where there is one
     */
    public EncoderException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its message and cause.
     *
     * @param message what went wrong
     * @param cause   the failure behind it
     */
    public EncoderException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Wraps a failure; the message is that of {@code cause}.
     *
     * @param cause the failure behind it
     */
    public EncoderException(Throwable cause) {
        super(cause);
    }
}
