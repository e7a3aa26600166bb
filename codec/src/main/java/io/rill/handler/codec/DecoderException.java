package io.rill.handler.codec;

/**
 * A decoder could not turn its input into messages: the input was malformed, too long, or the
 * decoder itself broke a rule of {@link ByteToMessageDecoder}. Other exceptions thrown by a
 * decoder reach {@code exceptionCaught} wrapped in one of these.
 */
public class DecoderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DecoderException(String message) {
        super(message);
    }

    public DecoderException(String message, Throwable cause) {
        super(message, cause);
    }

    public DecoderException(Throwable cause) {
        super(cause);
    }
}
