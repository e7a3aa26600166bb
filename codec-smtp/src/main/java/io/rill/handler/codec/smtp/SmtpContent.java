package io.rill.handler.codec.smtp;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;

/**
 * A piece of the message sent after {@code DATA}, as the application has it: the encoder
 * dot-stuffs it and turns bare CR and LF into CRLF. The last piece is a {@link LastSmtpContent}.
 */
public class SmtpContent implements ByteBufHolder {

    private final ByteBuf content;

    /**
     * A piece holding {@code content}.
     *
     * @param content the bytes; owned by this object from now on, released when it is
     */
    public SmtpContent(ByteBuf content) {
        if (content == null) {
            throw new NullPointerException("content");
        }
        this.content = content;
    }

    @Override
    public ByteBuf content() {
        return content;
    }

    @Override
    public SmtpContent replace(ByteBuf content) {
        return new SmtpContent(content);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + '(' + content + ')';
    }
}
