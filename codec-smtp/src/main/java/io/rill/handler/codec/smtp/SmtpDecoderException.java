package io.rill.handler.codec.smtp;

import io.rill.handler.codec.DecoderException;

/** What the server sent is not an SMTP reply, or is over the decoder's bounds. */
public final class SmtpDecoderException extends DecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with its message.
     *
     * @param message what was wrong, with the bound that was passed where one was
     */
    public SmtpDecoderException(String message) {
        super(message);
    }
}
