package io.rill.handler.codec.memcache.text;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;

/**
 * The lexical pieces both directions share: keys, unsigned decimals, exptimes and words, read in
 * place from a buffer range without allocating, and written straight into a buffer.
 */
final class TextWire {

    /** memcached's own key limit, in bytes. */
    static final int MAX_KEY_LENGTH = 250;
    /** The longest message kept in an error or version reply built here, so its line stays short. */
    static final int MAX_MESSAGE_LENGTH = 1024;
    /** 2^64 - 1 has 20 digits. */
    private static final int MAX_DIGITS = 20;

    /** {@code \r\n} as one big-endian short. */
    static final int CRLF_SHORT = ('\r' << 8) | '\n';
    /** Shared, its reference count constant; each use takes a duplicate for its own indexes. */
    private static final ByteBuf CRLF = io.rill.buffer.Unpooled.constantBuffer(new byte[] {'\r', '\n'});

    private TextWire() {
    }

    static boolean is(ByteBuf in, int from, int to, byte[] word) {
        if (to - from != word.length) {
            return false;
        }
        for (int i = 0; i < word.length; i++) {
            if (in.getByte(from + i) != word[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * An unsigned decimal of at most {@code max} (compared unsigned; -1 means 2^64 - 1): digits only,
     * no sign, at most 20 of them.
     */
    static long unsigned(ByteBuf in, int from, int to, long max, String what) {
        int n = to - from;
        if (n == 0 || n > MAX_DIGITS) {
            throw bad(what, in, from, to);
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9) {
                throw bad(what, in, from, to);
            }
            // value * 10 + d must stay within 2^64 - 1.
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - d, 10)) > 0) {
                throw bad(what, in, from, to);
            }
            value = value * 10 + d;
        }
        if (Long.compareUnsigned(value, max) > 0) {
            throw bad(what, in, from, to);
        }
        return value;
    }

    /** An exptime: a signed 32-bit decimal (negative means already expired). */
    static int exptime(ByteBuf in, int from, int to) {
        boolean negative = to > from && in.getByte(from) == '-';
        long magnitude = unsigned(in, negative ? from + 1 : from, to, negative ? 1L << 31 : Integer.MAX_VALUE, "exptime");
        return (int) (negative ? -magnitude : magnitude);
    }

    /** A key: 1 to 250 bytes, none a control character or space, UTF-8. */
    static String key(ByteBuf in, int from, int to) {
        int n = to - from;
        if (n > MAX_KEY_LENGTH) {
            throw new TextMemcacheDecoderException("a memcache key of " + n + " bytes, over " + MAX_KEY_LENGTH);
        }
        boolean ascii = true;
        for (int i = from; i < to; i++) {
            int b = in.getByte(i) & 0xFF;
            if (b <= ' ' || b == 0x7F) {
                throw bad("key (control character or space)", in, from, to);
            }
            ascii &= b < 0x80;
        }
        if (ascii) {
            return in.toString(from, n, StandardCharsets.US_ASCII);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(in.nioBuffer(from, n)).toString();
        } catch (CharacterCodingException e) {
            throw bad("key (not UTF-8)", in, from, to);
        }
    }

    /** Checks a key given to a factory: its UTF-8 form is what the wire carries. */
    static String checkKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("a memcache key must not be empty");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c <= ' ' || c == 0x7F || Character.isISOControl(c)) {
                throw new IllegalArgumentException("a memcache key holds no control character or space: " + quote(key));
            }
        }
        int bytes = io.rill.buffer.ByteBufUtil.utf8Bytes(key); // counted, not encoded: no garbage per request
        if (bytes > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a memcache key of " + bytes + " bytes, over " + MAX_KEY_LENGTH);
        }
        return key;
    }

    /** Checks the text of an error or version reply: one line, printable, short. */
    static String checkMessage(String message) {
        if (message.length() > MAX_MESSAGE_LENGTH) {
            throw new IllegalArgumentException("a reply message of " + message.length() + " chars, over " + MAX_MESSAGE_LENGTH);
        }
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (c < ' ' || c > '~') {
                throw new IllegalArgumentException("a reply message is printable ASCII on one line: " + quote(message));
            }
        }
        return message;
    }

    static void writeUnsigned(ByteBuf out, long value) {
        if (value >= 0 && value < 10) {
            out.writeByte('0' + (int) value);
            return;
        }
        byte[] digits = new byte[MAX_DIGITS];
        int at = digits.length;
        for (long v = value; v != 0; v = Long.divideUnsigned(v, 10)) {
            digits[--at] = (byte) ('0' + Long.remainderUnsigned(v, 10));
        }
        out.writeBytes(digits, at, digits.length - at);
    }

    static void writeSigned(ByteBuf out, int value) {
        if (value < 0) {
            out.writeByte('-');
            writeUnsigned(out, -(long) value);
        } else {
            writeUnsigned(out, value);
        }
    }

    static int writeKey(ByteBuf out, String key) {
        return out.writeCharSequence(key, StandardCharsets.UTF_8);
    }

    static TextMemcacheDecoderException bad(String what, ByteBuf in, int from, int to) {
        return new TextMemcacheDecoderException("a malformed " + what + ": " + quote(in, from, to));
    }

    /** The range as printable ASCII, cut at 64 bytes, so that an error message never carries a payload. */
    static String quote(ByteBuf in, int from, int to) {
        byte[] head = new byte[Math.min(to - from, 64)];
        in.getBytes(from, head);
        return quote(head, to - from > head.length);
    }

    static String quote(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return quote(bytes.length > 64 ? java.util.Arrays.copyOf(bytes, 64) : bytes, bytes.length > 64);
    }

    private static String quote(byte[] head, boolean cut) {
        StringBuilder s = new StringBuilder("\"");
        for (byte value : head) {
            int b = value & 0xFF;
            if (b >= ' ' && b < 0x7F && b != '"' && b != '\\') {
                s.append((char) b);
            } else {
                s.append(String.format("\\x%02x", b));
            }
        }
        return s.append(cut ? "\"..." : "\"").toString();
    }

    /** A data block and its end: the data itself (retained, not copied), then the shared CRLF. */
    static void addData(ByteBuf data, java.util.List<Object> out) {
        if (data.isReadable()) {
            out.add(data.retain());
        }
        out.add(CRLF.duplicate());
    }
}
