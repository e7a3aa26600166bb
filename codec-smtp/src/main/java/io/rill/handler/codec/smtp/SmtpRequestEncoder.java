package io.rill.handler.codec.smtp;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.EncoderException;
import io.rill.handler.codec.MessageToByteEncoder;

/**
 * Writes {@link SmtpRequest}s as command lines and the message after {@code DATA} as
 * {@link SmtpContent}s. The message is made safe on its way out (RFC 5321 §4.5.2 and §2.3.8):
 * a line that starts with {@code .} gets a second one, and a CR or LF that is not part of a CRLF
 * becomes a CRLF, so nothing inside the message can end it (or end it and start another message,
 * as "SMTP smuggling" does with {@code \n.\r\n}). {@link LastSmtpContent} ends the last line if the
 * message did not, then writes {@code .\r\n}. A request sent while a message is being written
 * (after {@code DATA}, before its last content) fails with {@link EncoderException}. One per
 * channel: it remembers where in a line the message is.
 */
public final class SmtpRequestEncoder extends MessageToByteEncoder<Object> {

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte DOT = '.';

    /** After a DATA request, until a LastSmtpContent: content may come, requests may not. */
    private boolean inMessage;
    /** The next content byte starts a line. */
    private boolean lineStart = true;
    /** The last content byte was a CR whose LF may still come in the next piece. */
    private boolean pendingCr;

    /** An encoder for one channel. */
    public SmtpRequestEncoder() {
        super(Object.class, false);
    }

    @Override
    public boolean acceptOutboundMessage(Object msg) {
        return msg instanceof SmtpRequest || msg instanceof SmtpContent;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Object msg, ByteBuf out) {
        if (msg instanceof SmtpRequest request) {
            if (inMessage) {
                throw new EncoderException("an SMTP " + request.command() + " request while a message is being"
                        + " written: end it with a LastSmtpContent first");
            }
            out.writeBytes(request.command().bytes());
            for (String p : request.parameters()) {
                out.writeByte(' ');
                out.writeCharSequence(p, java.nio.charset.StandardCharsets.US_ASCII);
            }
            out.writeByte(CR).writeByte(LF);
            if (request.command().equals(SmtpCommand.DATA)) {
                inMessage = true;
                lineStart = true;
                pendingCr = false;
            }
            return;
        }
        SmtpContent content = (SmtpContent) msg;
        if (!inMessage) {
            throw new EncoderException("SMTP content outside a message: send a DATA request first");
        }
        stuff(content.content(), out);
        if (content instanceof LastSmtpContent) {
            if (pendingCr) {
                out.writeByte(LF);
            } else if (!lineStart) {
                out.writeByte(CR).writeByte(LF);
            }
            out.writeByte(DOT).writeByte(CR).writeByte(LF);
            inMessage = false;
            lineStart = true;
            pendingCr = false;
        }
    }

    /** Copies {@code in} to {@code out} with lines ending in CRLF and leading dots doubled. */
    private void stuff(ByteBuf in, ByteBuf out) {
        out.ensureWritable(in.readableBytes() + (in.readableBytes() >> 6) + 4);
        int end = in.writerIndex();
        for (int i = in.readerIndex(); i < end; i++) {
            byte b = in.getByte(i);
            if (pendingCr) {
                pendingCr = false;
                out.writeByte(LF); // CR then anything: the line ends here either way
                lineStart = true;
                if (b == LF) {
                    continue;
                }
            }
            if (b == CR) {
                out.writeByte(CR);
                pendingCr = true;
                continue;
            }
            if (b == LF) { // a bare LF
                out.writeByte(CR).writeByte(LF);
                lineStart = true;
                continue;
            }
            if (lineStart && b == DOT) {
                out.writeByte(DOT);
            }
            out.writeByte(b);
            lineStart = false;
        }
    }
}
