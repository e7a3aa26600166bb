package io.rill.handler.codec.smtp;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** The last piece of a message: after it the encoder ends the line if needed and writes {@code .\r\n}. */
public final class LastSmtpContent extends SmtpContent {

    /**
     * A piece holding {@code content}.
     *
     * @param content the last bytes (may be empty); owned by this object from now on
     */
    public LastSmtpContent(ByteBuf content) {
        super(content);
    }

    /** {@return an empty last piece, for a message whose bytes all went in earlier pieces} */
    public static LastSmtpContent empty() {
        return new LastSmtpContent(Unpooled.EMPTY_BUFFER);
    }

    @Override
    public LastSmtpContent replace(ByteBuf content) {
        return new LastSmtpContent(content);
    }
}
