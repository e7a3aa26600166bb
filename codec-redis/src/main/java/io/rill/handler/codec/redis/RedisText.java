package io.rill.handler.codec.redis;

import io.rill.buffer.ByteBuf;

/** Checks and quotes text for messages and errors; quoting escapes what would garble a log line. */
final class RedisText {

    /** How much of a value a message's {@code toString} or an error shows. */
    private static final int QUOTE_LIMIT = 64;

    private RedisText() {
    }

    /** Refuses CR and LF: in a line-terminated field they would end it and start another reply. */
    static void checkLine(String content, String what) {
        if (content.indexOf('\r') >= 0 || content.indexOf('\n') >= 0) {
            throw new IllegalArgumentException(what + " " + quote(content) + " holds CR or LF");
        }
    }

    /** True for an optional sign followed by one or more decimal digits. */
    static boolean isInteger(CharSequence s) {
        int start = s.length() > 0 && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
        if (s.length() == start) {
            return false;
        }
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code s} in double quotes, non-printable characters escaped, cut after {@value #QUOTE_LIMIT}. */
    static String quote(CharSequence s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), QUOTE_LIMIT) + 8).append('"');
        for (int i = 0; i < s.length() && i < QUOTE_LIMIT; i++) {
            appendEscaped(sb, s.charAt(i));
        }
        return sb.append(s.length() > QUOTE_LIMIT ? "\"..." : "\"").toString();
    }

    /** Bytes {@code [index, index + length)} of {@code buf} quoted like {@link #quote}, each byte one character. */
    static String quote(ByteBuf buf, int index, int length) {
        StringBuilder sb = new StringBuilder(Math.min(length, QUOTE_LIMIT) + 8).append('"');
        for (int i = 0; i < length && i < QUOTE_LIMIT; i++) {
            int b = buf.getByte(index + i) & 0xff;
            if (b >= 0x7f) {
                sb.append(String.format("\\x%02x", b)); // a byte of UTF-8 or binary, not a Latin-1 character
            } else {
                appendEscaped(sb, (char) b);
            }
        }
        return sb.append(length > QUOTE_LIMIT ? "\"..." : "\"").toString();
    }

    /** A buffer's readable bytes, quoted, with their count, for {@code toString}. */
    static String describe(ByteBuf content) {
        if (content.refCnt() == 0) {
            return "released";
        }
        return content.readableBytes() + " bytes " + quote(content, content.readerIndex(), content.readableBytes());
    }

    private static void appendEscaped(StringBuilder sb, char c) {
        switch (c) {
            case '\r' -> sb.append("\\r");
            case '\n' -> sb.append("\\n");
            case '\t' -> sb.append("\\t");
            case '"' -> sb.append("\\\"");
            case '\\' -> sb.append("\\\\");
            default -> {
                if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                    sb.append(String.format("\\x%02x", (int) c));
                } else {
                    sb.append(c);
                }
            }
        }
    }
}
