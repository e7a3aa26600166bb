package io.rill.handler.codec;

/**
 * A decoder could not turn its input into messages: the input was malformed, too long, or the
 * decoder itself broke a rule of {@link ByteToMessageDecoder}. Other exceptions thrown by a
 * decoder reach {@code exceptionCaught} wrapped in one of these.
 */
public class DecoderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what went wrong, quoting the input where there is one
     */
    public DecoderException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its message and cause.
     *
     * @param message what went wrong
     * @param cause   the failure behind it
     */
    public DecoderException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Wraps a failure; the message is that of {@code cause}.
     *
     * @param cause the failure behind it
     */
    public DecoderException(Throwable cause) {
        super(cause);
    }
}
