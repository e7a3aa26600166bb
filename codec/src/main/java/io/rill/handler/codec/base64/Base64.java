package io.rill.handler.codec.base64;

import java.util.Arrays;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.codec.DecoderException;

/**
 * Base64 (RFC 4648) straight from one {@code ByteBuf} into another, without the {@code byte[]}
 * round trip {@link java.util.Base64} would need.
 *
 * <pre>
 *   bytes:   |  0x4d 'M'  |  0x61 'a'  |  0x6e 'n'  |
 *   bits:    010011 010110 000101 101110
 *   chars:     T      W      F      u            three bytes become four characters;
 *   "Ma" ──► "TWE="   "M" ──► "TQ=="              a short last group is padded with '='.
 * </pre>
 *
 * Encoding writes padding; with {@code breakLines} it inserts CRLF after every 76 characters
 * (RFC 2045, MIME). Decoding skips whitespace (CR, LF, space, tab), accepts a missing final
 * padding, and throws {@link DecoderException} naming the first byte outside the alphabet.
 */
public final class Base64 {

    /** The alphabet: RFC 4648 §4 (standard) or §5 (URL- and filename-safe). */
    public enum Dialect {
        /** The standard alphabet of RFC 4648 §4, with {@code +} and {@code /}. */
        STANDARD('+', '/'),
        /** The URL- and filename-safe alphabet of RFC 4648 §5, with {@code -} and {@code _}. */
        URL_SAFE('-', '_');

        /** 6-bit value → character. */
        final byte[] alphabet = new byte[64];
        /** character → 6-bit value; WHITESPACE, PAD or INVALID for the others. */
        final byte[] decodabet = new byte[256];

        Dialect(char c62, char c63) {
            String letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + c62 + c63;
            Arrays.fill(decodabet, INVALID);
            for (int i = 0; i < 64; i++) {
                alphabet[i] = (byte) letters.charAt(i);
                decodabet[letters.charAt(i)] = (byte) i;
            }
            decodabet['='] = PAD;
            for (char c : new char[] {'\r', '\n', ' ', '\t'}) {
                decodabet[c] = WHITESPACE;
            }
        }
    }

    private static final byte INVALID = -1;
    private static final byte WHITESPACE = -2;
    private static final byte PAD = -3;
    /** RFC 2045 §6.8: encoded lines are at most 76 characters. */
    static final int MAX_LINE_LENGTH = 76;

    private Base64() {
    }

    /**
     * The readable bytes of {@code src} (not consumed) in standard Base64, one line.
     *
     * @param src   the bytes to encode; neither consumed nor released
     * @param alloc allocates the result
     * @return a new buffer with the encoding, owned (and to be released) by the caller
     */
    public static ByteBuf encode(ByteBuf src, ByteBufAllocator alloc) {
        return encode(src, src.readerIndex(), src.readableBytes(), false, Dialect.STANDARD, alloc);
    }

    /**
     * {@code src[index, index + length)} in Base64 of {@code dialect}, broken into MIME lines if asked.
     *
     * @param src        the bytes to encode; neither consumed nor released
     * @param index      the first byte to encode
     * @param length     how many bytes to encode
     * @param breakLines true to insert CRLF after every 76 characters
     * @param dialect    the alphabet
     * @param alloc      allocates the result
     * @return a new buffer with the encoding, owned (and to be released) by the caller
     */
    public static ByteBuf encode(ByteBuf src, int index, int length, boolean breakLines, Dialect dialect,
                                 ByteBufAllocator alloc) {
        byte[] alphabet = dialect.alphabet;
        long chars = (length + 2L) / 3 * 4;
        long breaks = breakLines && chars > 0 ? (chars - 1) / MAX_LINE_LENGTH : 0;
        if (chars + 2 * breaks > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("input of " + length + " bytes is too large to encode");
        }
        ByteBuf dst = alloc.buffer((int) (chars + 2 * breaks));
        int lineLength = 0;
        int end = index + length;
        for (int i = index; i < end; i += 3) {
            int n = Math.min(3, end - i);
            int group = (src.getUnsignedByte(i) << 16)
                    | (n > 1 ? src.getUnsignedByte(i + 1) << 8 : 0)
                    | (n > 2 ? src.getUnsignedByte(i + 2) : 0);
            if (breakLines && lineLength == MAX_LINE_LENGTH) {
                dst.writeByte('\r').writeByte('\n');
                lineLength = 0;
            }
            dst.writeByte(alphabet[group >>> 18]).writeByte(alphabet[(group >>> 12) & 0x3f])
                    .writeByte(n > 1 ? alphabet[(group >>> 6) & 0x3f] : '=')
                    .writeByte(n > 2 ? alphabet[group & 0x3f] : '=');
            lineLength += 4;
        }
        return dst;
    }

    /**
     * The readable bytes of {@code src} (not consumed) decoded from standard Base64.
     *
     * @param src   the Base64 text; neither consumed nor released
     * @param alloc allocates the result
     * @return a new buffer with the decoded bytes, owned (and to be released) by the caller
     * @throws DecoderException if {@code src} holds a byte outside the alphabet
     */
    public static ByteBuf decode(ByteBuf src, ByteBufAllocator alloc) {
        return decode(src, src.readerIndex(), src.readableBytes(), Dialect.STANDARD, alloc);
    }

    /**
     * {@code src[index, index + length)} decoded from Base64 of {@code dialect}.
     *
     * @param src     the Base64 text; neither consumed nor released
     * @param index   the first byte to decode
     * @param length  how many bytes to decode
     * @param dialect the alphabet
     * @param alloc   allocates the result
     * @return a new buffer with the decoded bytes, owned (and to be released) by the caller
     * @throws DecoderException if the range holds a byte outside the alphabet
     */
    public static ByteBuf decode(ByteBuf src, int index, int length, Dialect dialect, ByteBufAllocator alloc) {
        ByteBuf dst = alloc.buffer(length / 4 * 3 + 3);
        try {
            decodeInto(src, index, length, dialect.decodabet, dst);
            return dst;
        } catch (RuntimeException e) {
            dst.release();
            throw e;
        }
    }

    private static void decodeInto(ByteBuf src, int index, int length, byte[] decodabet, ByteBuf dst) {
        int group = 0;
        int count = 0;
        int pads = 0;
        boolean ended = false; // a padded group ends the data: only whitespace may follow
        for (int i = index; i < index + length; i++) {
            byte b = src.getByte(i);
            byte v = decodabet[b & 0xff];
            if (v == WHITESPACE) {
                continue;
            }
            if (ended || (pads > 0 && v != PAD)) {
                throw invalid(b, i - index, "data after padding");
            }
            if (v == INVALID) {
                throw invalid(b, i - index, "not in the alphabet");
            }
            if (v == PAD) {
                if (count < 2) {
                    throw invalid(b, i - index, "padding after " + count + " characters of a group");
                }
                pads++;
            } else {
                group = group << 6 | v;
            }
            if (++count == 4) {
                flush(group << 6 * pads, 3 - pads, dst);
                ended = pads > 0;
                group = 0;
                count = 0;
                pads = 0;
            }
        }
        if (count == 1) {
            throw new DecoderException("Base64 input ends with a single character of a group: truncated");
        }
        if (count > 1) {
            flush(group << 6 * (4 - count), count - 1, dst); // padding omitted, as RFC 4648 §3.2 permits
        }
    }

    private static void flush(int group24, int bytes, ByteBuf dst) {
        dst.writeByte(group24 >>> 16);
        if (bytes > 1) {
            dst.writeByte(group24 >>> 8);
        }
        if (bytes > 2) {
            dst.writeByte(group24);
        }
    }

    private static DecoderException invalid(byte b, int offset, String why) {
        return new DecoderException(String.format("invalid Base64 byte 0x%02x at offset %d: %s", b & 0xff, offset, why));
    }
}
