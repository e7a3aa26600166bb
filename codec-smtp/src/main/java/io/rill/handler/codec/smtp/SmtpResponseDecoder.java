package io.rill.handler.codec.smtp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * Reads SMTP replies (RFC 5321 §4.2): lines of a three-digit code, {@code -} on every line but
 * the last, which has a space (or nothing) there, and text; a multi-line reply becomes one
 * {@link SmtpResponse}. Lines end with CRLF; a bare LF is accepted as an end of line, as many
 * clients do.
 *
 * <p>Bounds: a line longer than {@code maxLineLength} (4096 bytes by default; RFC 5321 allows 512)
 * and a reply of more than {@code maxLines} lines (128) fail without being buffered further. A line
 * that is not a reply line, a code outside 200 to 599, or a continuation with another code fails
 * too. Each failure is a {@link SmtpDecoderException}, and the decoder then drops everything that
 * follows: the client cannot know where the server's next reply starts, so it should close.
 */
public final class SmtpResponseDecoder extends ByteToMessageDecoder {

    /** Far above RFC 5321's 512, which servers exceed with long EHLO lines and messages. */
    public static final int DEFAULT_MAX_LINE_LENGTH = 4096;
    /** An EHLO reply lists a line per extension; no server has a hundred. */
    public static final int DEFAULT_MAX_LINES = 128;

    private final int maxLineLength;
    private final int maxLines;
    private int code = -1;
    private List<String> lines;
    private boolean broken;
    /** Grows to the longest line read, at most maxLineLength. */
    private byte[] scratch = new byte[128];

    /** A decoder with the default bounds. */
    public SmtpResponseDecoder() {
        this(DEFAULT_MAX_LINE_LENGTH, DEFAULT_MAX_LINES);
    }

    /**
     * A decoder with the given bounds.
     *
     * @param maxLineLength the longest line, CRLF excluded; at least 3
     * @param maxLines the most lines of one reply; at least 1
     */
    public SmtpResponseDecoder(int maxLineLength, int maxLines) {
        if (maxLineLength < 3 || maxLines < 1) {
            throw new IllegalArgumentException("maxLineLength must be at least 3 and maxLines at least 1: "
                    + maxLineLength + ", " + maxLines);
        }
        this.maxLineLength = maxLineLength;
        this.maxLines = maxLines;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (!broken && in.isReadable()) {
            int lf = in.indexOf(in.readerIndex(), Math.min(in.writerIndex(), in.readerIndex() + maxLineLength + 2),
                    (byte) '\n');
            if (lf < 0) {
                if (in.readableBytes() > maxLineLength + 1) {
                    fail(in, "a reply line longer than maxLineLength (" + maxLineLength + " bytes)");
                }
                return;
            }
            int end = lf > in.readerIndex() && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
            int length = end - in.readerIndex();
            if (length > maxLineLength) {
                fail(in, "a reply line longer than maxLineLength (" + maxLineLength + " bytes)");
                return;
            }
            int start = in.readerIndex();
            in.readerIndex(lf + 1);
            SmtpResponse done = line(in, start, length);
            if (done != null) {
                out.add(done);
            }
        }
        if (broken) {
            in.skipBytes(in.readableBytes());
        }
    }

    /** Takes the line of {@code length} bytes at {@code start}; returns the reply it completes, or null. */
    private SmtpResponse line(ByteBuf in, int start, int length) {
        if (length < 3 || !digit(in.getByte(start), '2', '5') || !digit(in.getByte(start + 1), '0', '9')
                || !digit(in.getByte(start + 2), '0', '9')) {
            fail(in, "not an SMTP reply line: " + quote(in, start, length));
            return null;
        }
        int lineCode = (in.getByte(start) - '0') * 100 + (in.getByte(start + 1) - '0') * 10 + (in.getByte(start + 2) - '0');
        byte separator = length > 3 ? in.getByte(start + 3) : (byte) ' ';
        if (separator != ' ' && separator != '-') {
            fail(in, "an SMTP reply line with '" + (char) (separator & 0xFF) + "' after its code: " + quote(in, start, length));
            return null;
        }
        if (code >= 0 && lineCode != code) {
            fail(in, "an SMTP reply continued with another code (" + code + ", then " + lineCode + ")");
            return null;
        }
        String text = length > 4 ? text(in, start + 4, length - 4) : "";
        if (code < 0 && separator == ' ') {
            return new SmtpResponse(lineCode, List.of(text)); // the usual one-line reply: no list to grow
        }
        if (code < 0) {
            code = lineCode;
            lines = new ArrayList<>(8);
        }
        if (lines.size() == maxLines) {
            fail(in, "an SMTP reply of more than maxLines (" + maxLines + ") lines");
            return null;
        }
        lines.add(text);
        if (separator == '-') {
            return null;
        }
        SmtpResponse response = new SmtpResponse(code, lines);
        code = -1;
        lines = null;
        return response;
    }

    /**
     * The line's text as a string, through this decoder's own scratch array when the buffer is
     * direct: one copy into the string rather than two.
     */
    private String text(ByteBuf in, int start, int length) {
        if (in.hasArray()) {
            return new String(in.array(), in.arrayOffset() + start, length, StandardCharsets.ISO_8859_1);
        }
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        in.getBytes(start, scratch, 0, length);
        return new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
    }

    private static boolean digit(byte c, char low, char high) {
        return c >= low && c <= high;
    }

    private static String quote(ByteBuf in, int start, int length) {
        String shown = in.toString(start, Math.min(length, 64), StandardCharsets.ISO_8859_1) + (length > 64 ? "..." : "");
        return '"' + shown.replace("\r", "\\r") + '"';
    }

    private void fail(ByteBuf in, String why) {
        broken = true;
        code = -1;
        lines = null;
        in.skipBytes(in.readableBytes());
        throw new SmtpDecoderException(why);
    }
}
