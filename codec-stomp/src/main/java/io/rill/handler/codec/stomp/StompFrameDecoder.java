package io.rill.handler.codec.stomp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * Reads STOMP 1.2 frames, whole, as {@link StompFrame}s, and the EOLs between them as a
 * {@link StompHeartbeat} (one per read). A frame's head (command and headers) is searched for its
 * end once, however it is cut, and parsed when whole; the body is read by its {@code content-length}
 * or up to its NUL. Bounds and failures as in the package description. Lines may end in LF or CRLF.
 */
public final class StompFrameDecoder extends ByteToMessageDecoder {

    /** The command line and each header line. */
    public static final int DEFAULT_MAX_LINE_LENGTH = 8 * 1024;
    /** Headers a frame may carry. */
    public static final int DEFAULT_MAX_HEADERS = 64;
    /** A body. */
    public static final int DEFAULT_MAX_BODY_LENGTH = 1 << 20;

    private static final StompCommand[] COMMANDS = StompCommand.values();

    private final int maxLineLength;
    private final int maxHeaders;
    private final int maxBodyLength;

    /** Where the search for the end of the head goes on, from the reader index. */
    private int headScanned;
    /** Lines of the head found so far, the command's included. */
    private int headLines;
    /** Set once the head is parsed: what the frame's body still needs. */
    private StompCommand command;
    private List<Map.Entry<String, String>> headers;
    /** The body's length from content-length, or -1 to read up to the NUL. */
    private int contentLength;
    /** Where the search for the body's NUL goes on, from the reader index. */
    private int bodyScanned;
    private boolean broken;

    /** A decoder with the default bounds (8 KiB lines, 64 headers, 1 MiB bodies). */
    public StompFrameDecoder() {
        this(DEFAULT_MAX_LINE_LENGTH, DEFAULT_MAX_HEADERS, DEFAULT_MAX_BODY_LENGTH);
    }

    /**
     * A decoder with its own bounds.
     *
     * @param maxLineLength the longest command or header line, EOL excluded; positive
     * @param maxHeaders the most headers of one frame; zero or more
     * @param maxBodyLength the longest body; zero or more
     */
    public StompFrameDecoder(int maxLineLength, int maxHeaders, int maxBodyLength) {
        if (maxLineLength <= 0 || maxHeaders < 0 || maxBodyLength < 0) {
            throw new IllegalArgumentException("bounds must be positive (maxLineLength) or not negative: "
                    + maxLineLength + ", " + maxHeaders + ", " + maxBodyLength);
        }
        this.maxLineLength = maxLineLength;
        this.maxHeaders = maxHeaders;
        this.maxBodyLength = maxBodyLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        boolean heartbeat = false;
        while (!broken && in.isReadable()) {
            if (command == null) {
                if (headScanned == 0 && skipEol(in)) {
                    heartbeat = true;
                    continue;
                }
                int headEnd = findHeadEnd(in);
                if (headEnd < 0) {
                    break;
                }
                parseHead(in, headEnd);
            }
            StompFrame frame = readBody(in);
            if (frame == null) {
                break;
            }
            if (heartbeat) {
                out.add(StompHeartbeat.INSTANCE);
                heartbeat = false;
            }
            out.add(frame);
        }
        if (heartbeat) {
            out.add(StompHeartbeat.INSTANCE);
        }
        if (broken) {
            in.skipBytes(in.readableBytes());
        }
    }

    /** Consumes one EOL (LF or CRLF) at the reader index; false if there is none (or only a CR yet). */
    private static boolean skipEol(ByteBuf in) {
        byte b = in.getByte(in.readerIndex());
        if (b == '\n') {
            in.skipBytes(1);
            return true;
        }
        if (b == '\r' && in.readableBytes() >= 2 && in.getByte(in.readerIndex() + 1) == '\n') {
            in.skipBytes(2);
            return true;
        }
        return false;
    }

    /** The index just after the empty line that ends the head, or -1 while it has not come. */
    private int findHeadEnd(ByteBuf in) {
        int start = in.readerIndex();
        int pos = start + headScanned;
        int lines = headLines;
        while (true) {
            int limit = Math.min(in.writerIndex(), pos + maxLineLength + 2);
            int lf = in.indexOf(pos, limit, (byte) '\n');
            if (lf < 0) {
                if (in.writerIndex() - pos > maxLineLength + 1) {
                    fail(in, lines == 0 ? "a STOMP command line longer than maxLineLength (" + maxLineLength + ")"
                            : "a STOMP header line longer than maxLineLength (" + maxLineLength + ")");
                }
                headScanned = pos - start;
                headLines = lines;
                return -1;
            }
            int length = lf - pos - (lf > pos && in.getByte(lf - 1) == '\r' ? 1 : 0);
            if (length > maxLineLength) {
                fail(in, "a STOMP line longer than maxLineLength (" + maxLineLength + ")");
            }
            if (length == 0 && lines > 0) {
                headScanned = 0;
                headLines = 0;
                return lf + 1;
            }
            if (lines > maxHeaders) {
                fail(in, "a STOMP frame with more than maxHeaders (" + maxHeaders + ") headers");
            }
            lines++;
            pos = lf + 1;
        }
    }

    /** Parses the command and headers in [reader index, headEnd), line by line, straight from the bytes. */
    private void parseHead(ByteBuf in, int headEnd) {
        int pos = in.readerIndex();
        int lf = in.indexOf(pos, headEnd, (byte) '\n');
        StompCommand cmd = command(in, pos, lineEnd(in, pos, lf));
        List<Map.Entry<String, String>> parsed = new ArrayList<>(8);
        int length = -1;
        for (pos = lf + 1; ; pos = lf + 1) {
            lf = in.indexOf(pos, headEnd, (byte) '\n');
            int end = lineEnd(in, pos, lf);
            if (end == pos) {
                break; // the empty line that ends the head
            }
            int colon = in.indexOf(pos, end, (byte) ':');
            if (colon <= pos) {
                fail(in, "a STOMP header without a name or a colon: " + quote(in.toString(pos, end - pos, StandardCharsets.UTF_8)));
            }
            String name = in.toString(pos, colon - pos, StandardCharsets.UTF_8);
            String value = in.toString(colon + 1, end - colon - 1, StandardCharsets.UTF_8);
            if (cmd.escapesHeaders()) {
                name = unescape(in, name);
                value = unescape(in, value);
            }
            if (length < 0 && name.equals("content-length") && !hasHeader(parsed, "content-length")) {
                length = contentLength(in, value);
            }
            parsed.add(Map.entry(name, value));
        }
        in.readerIndex(headEnd);
        command = cmd;
        headers = parsed;
        contentLength = length;
        bodyScanned = 0;
    }

    /** The end of the line whose LF is at {@code lf}: the CR before it excluded. */
    private static int lineEnd(ByteBuf in, int start, int lf) {
        return lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
    }

    /** The command spelled in [start, end), compared byte by byte: no string for the usual ones. */
    private StompCommand command(ByteBuf in, int start, int end) {
        int length = end - start;
        for (StompCommand c : COMMANDS) {
            String name = c.name();
            if (name.length() == length && matches(in, start, name)) {
                return c;
            }
        }
        fail(in, "not a STOMP command: " + quote(in.toString(start, Math.min(length, 64), StandardCharsets.ISO_8859_1)));
        return null;
    }

    private static boolean matches(ByteBuf in, int start, String name) {
        for (int i = 0; i < name.length(); i++) {
            if (in.getByte(start + i) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasHeader(List<Map.Entry<String, String>> headers, String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private int contentLength(ByteBuf in, String value) {
        if (value.isEmpty() || value.length() > 10) {
            fail(in, "a STOMP content-length that is not a length: " + quote(value));
        }
        long n = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                fail(in, "a STOMP content-length that is not a length: " + quote(value));
            }
            n = n * 10 + (c - '0');
        }
        if (n > maxBodyLength) {
            fail(in, "a STOMP body of " + n + " bytes (content-length), over maxBodyLength (" + maxBodyLength + ")");
        }
        return (int) n;
    }

    /** The frame once its body and NUL are in, or null. */
    private StompFrame readBody(ByteBuf in) {
        int length;
        if (contentLength >= 0) {
            if (in.readableBytes() < contentLength + 1) {
                return null;
            }
            length = contentLength;
            if (in.getByte(in.readerIndex() + length) != 0) {
                fail(in, "a STOMP body of content-length " + length + " not followed by NUL");
            }
        } else {
            int from = in.readerIndex() + bodyScanned;
            int limit = Math.min(in.writerIndex(), in.readerIndex() + maxBodyLength + 1);
            int nul = in.indexOf(from, limit, (byte) 0);
            if (nul < 0) {
                if (in.readableBytes() > maxBodyLength) {
                    fail(in, "a STOMP body without content-length longer than maxBodyLength (" + maxBodyLength + ")");
                }
                bodyScanned = in.readableBytes();
                return null;
            }
            length = nul - in.readerIndex();
        }
        ByteBuf body = length == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(length);
        in.skipBytes(1);
        StompFrame frame = new StompFrame(command, headers, body);
        command = null;
        headers = null;
        return frame;
    }

    /** Decodes 1.2's escapes; any other backslash sequence fails. */
    private String unescape(ByteBuf in, String s) {
        int slash = s.indexOf('\\');
        if (slash < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        out.append(s, 0, slash);
        for (int i = slash; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char next = i + 1 < s.length() ? s.charAt(++i) : 0;
            switch (next) {
                case 'r' -> out.append('\r');
                case 'n' -> out.append('\n');
                case 'c' -> out.append(':');
                case '\\' -> out.append('\\');
                default -> fail(in, "an undefined escape in a STOMP header: " + quote(s));
            }
        }
        return out.toString();
    }

    private static String quote(String s) {
        String shown = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        return '"' + shown.replace("\r", "\\r").replace("\0", "\\0") + '"';
    }

    private void fail(ByteBuf in, String why) {
        broken = true;
        command = null;
        headers = null;
        in.skipBytes(in.readableBytes());
        throw new StompDecoderException(why);
    }
}
