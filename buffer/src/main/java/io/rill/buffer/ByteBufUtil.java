package io.rill.buffer;

import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Static helpers over buffers: hex dumps, UTF-8 and ASCII encoding straight into a buffer,
 * UTF-8 validation, and content comparison between buffers of any kind.
 */
public final class ByteBufUtil {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ByteBufUtil() {
    }

    // ------------------------------------------------------------------ ownership

    /**
     * Whether {@code buf} is the only way to its bytes: it holds memory of its own (it is no view
     * of another buffer, and no composite) and its reference count is 1, so no other reference
     * and no retained view of it exists. Its holder may then change any of its bytes, or pass it
     * on whole as part of a message, without anyone else seeing the change. (A plain view made
     * without retaining is not counted, as it may not be used once the buffer is passed on.)
     *
     * @param buf the buffer
     * @return true if changing {@code buf} can affect nobody but its holder
     */
    public static boolean isExclusive(ByteBuf buf) {
        ByteBuf memory = buf instanceof LeakAwareByteBuf tracked ? tracked.unwrap() : buf;
        return memory instanceof AbstractMemoryByteBuf && buf.refCnt() == 1;
    }

    // ------------------------------------------------------------------ hex

    /**
     * The readable bytes as lowercase hex, two digits per byte.
     *
     * @param buf the buffer; no index moves
     * @return the hex digits
     */
    public static String hexDump(ByteBuf buf) {
        return hexDump(buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * {@return {@code [index, index + length)} of {@code buf} as lowercase hex, two digits per byte}
     *
     * @param buf the buffer; no index moves
     * @param index absolute index of the first byte
     * @param length the number of bytes
     */
    public static String hexDump(ByteBuf buf, int index, int length) {
        StringBuilder sb = new StringBuilder(length * 2);
        for (int i = 0; i < length; i++) {
            appendHex(sb, buf.getByte(index + i));
        }
        return sb.toString();
    }

    /**
     * {@return {@code bytes} as lowercase hex, two digits per byte}
     *
     * @param bytes the bytes
     */
    public static String hexDump(byte[] bytes) {
        return hexDump(bytes, 0, bytes.length);
    }

    /**
     * {@return {@code bytes[offset, offset + length)} as lowercase hex, two digits per byte}
     *
     * @param bytes the array
     * @param offset the first byte
     * @param length the number of bytes
     */
    public static String hexDump(byte[] bytes, int offset, int length) {
        StringBuilder sb = new StringBuilder(length * 2);
        for (int i = offset; i < offset + length; i++) {
            appendHex(sb, bytes[i]);
        }
        return sb.toString();
    }

    private static void appendHex(StringBuilder sb, byte b) {
        sb.append(HEX[b >> 4 & 0xf]).append(HEX[b & 0xf]);
    }

    /**
     * Parses an even number of hex digits (either case) into bytes.
     *
     * @param hex the digits
     * @return the bytes
     * @throws IllegalArgumentException if the length is odd or a character is not a hex digit
     */
    public static byte[] decodeHexDump(CharSequence hex) {
        return decodeHexDump(hex, 0, hex.length());
    }

    /**
     * Parses {@code length} hex digits (either case) of {@code hex} from {@code fromIndex} into bytes.
     *
     * @param hex the text holding the digits
     * @param fromIndex the first digit
     * @param length the number of digits, even
     * @return the bytes
     * @throws IllegalArgumentException if {@code length} is odd or a character is not a hex digit
     */
    public static byte[] decodeHexDump(CharSequence hex, int fromIndex, int length) {
        if (length < 0 || (length & 1) != 0) {
            throw new IllegalArgumentException("length: " + length + " (expected: an even number of hex digits)");
        }
        byte[] bytes = new byte[length >>> 1];
        for (int i = 0; i < bytes.length; i++) {
            int at = fromIndex + 2 * i;
            int hi = Character.digit(hex.charAt(at), 16);
            int lo = Character.digit(hex.charAt(at + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("invalid hex byte '" + hex.subSequence(at, at + 2) + "' at index " + at);
            }
            bytes[i] = (byte) (hi << 4 | lo);
        }
        return bytes;
    }

    /**
     * A table of the readable bytes: 16 per row, offset on the left, hex in the middle,
     * printable ASCII on the right ('.' for anything else). For logs and error messages.
     *
     * @param buf the buffer; no index moves
     * @return the table, several lines
     */
    public static String prettyHexDump(ByteBuf buf) {
        return prettyHexDump(buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * Like {@link #prettyHexDump(ByteBuf)} for {@code [index, index + length)}; offsets count from {@code
     * index}.
     *
     * @param buf the buffer; no index moves
     * @param index absolute index of the first byte
     * @param length the number of bytes
     * @return the table, several lines
     */
    public static String prettyHexDump(ByteBuf buf, int index, int length) {
        String nl = System.lineSeparator();
        String rule = "+--------+-------------------------------------------------+----------------+";
        StringBuilder sb = new StringBuilder((length / 16 + 5) * 80);
        sb.append("         +-------------------------------------------------+").append(nl)
          .append("         |  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f |").append(nl)
          .append(rule).append(nl);
        for (int row = 0; row < length; row += 16) {
            int n = Math.min(16, length - row);
            sb.append('|').append(String.format("%08x", row)).append("| ");
            for (int i = 0; i < 16; i++) {
                if (i < n) {
                    appendHex(sb, buf.getByte(index + row + i));
                    sb.append(' ');
                } else {
                    sb.append("   ");
                }
            }
            sb.append('|');
            for (int i = 0; i < 16; i++) {
                int b = i < n ? buf.getByte(index + row + i) & 0xff : ' ';
                sb.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
            }
            sb.append('|').append(nl);
        }
        return sb.append(rule).toString();
    }

    // ------------------------------------------------------------------ text

    /**
     * The number of bytes {@code seq} takes in UTF-8 (unpaired surrogates count as one '?').
     *
     * @param seq the characters
     * @return the encoded length
     */
    public static int utf8Bytes(CharSequence seq) {
        int length = seq.length();
        int bytes = length;
        for (int i = 0; i < length; i++) {
            char c = seq.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                bytes += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(seq.charAt(i + 1))) {
                bytes += 2;
                i++;
            } else if (!Character.isSurrogate(c)) {
                bytes += 2;
            }
        }
        return bytes;
    }

    /**
     * Appends {@code seq} as UTF-8; returns the number of bytes written.
     *
     * @param buf the buffer to append to
     * @param seq the characters
     * @return the number of bytes written
     */
    public static int writeUtf8(ByteBuf buf, CharSequence seq) {
        return buf.writeCharSequence(seq, StandardCharsets.UTF_8);
    }

    /**
     * Appends {@code seq} as UTF-8 after making room for {@code reserveBytes} (callers pass an
     * upper bound such as {@code 3 * seq.length()} to skip the counting pass).
     *
     * @param buf the buffer to append to
     * @param seq the characters
     * @param reserveBytes the room to make first
     * @return the number of bytes written
     */
    public static int reserveAndWriteUtf8(ByteBuf buf, CharSequence seq, int reserveBytes) {
        buf.ensureWritable(reserveBytes);
        AbstractByteBuf b = (AbstractByteBuf) buf;
        int written;
        if (reserveBytes >= 3 * seq.length()) {
            written = ByteBufText.encodeUtf8(b, b.writerIndex, seq);
        } else {
            return writeUtf8(buf, seq);
        }
        b.writerIndex += written;
        return written;
    }

    /**
     * Appends {@code seq} as US-ASCII (chars above 0x7f become '?'); returns the bytes written.
     *
     * @param buf the buffer to append to
     * @param seq the characters
     * @return the number of bytes written, {@code seq.length()}
     */
    public static int writeAscii(ByteBuf buf, CharSequence seq) {
        return buf.writeCharSequence(seq, StandardCharsets.US_ASCII);
    }

    /**
     * Encodes {@code src}'s remaining chars into a new buffer from {@code alloc}.
     *
     * @param alloc where the new buffer comes from
     * @param src the characters; its position moves to the end
     * @param charset the encoding
     * @return the new buffer; the caller owns it and must release it
     */
    public static ByteBuf encodeString(ByteBufAllocator alloc, CharBuffer src, Charset charset) {
        ByteBuf buf = alloc.buffer(src.remaining() * 3);
        try {
            buf.writeCharSequence(src, charset);
            return buf;
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /**
     * True if the readable bytes are well-formed UTF-8 (RFC 3629: no overlongs, surrogates or values above
     * U+10FFFF).
     *
     * @param buf the buffer; no index moves
     * @return true if valid
     */
    public static boolean isValidUtf8(ByteBuf buf) {
        return isValidUtf8(buf, buf.readerIndex(), buf.readableBytes());
    }

    /**
     * {@return true if {@code [index, index + length)} of {@code buf} is well-formed UTF-8}
     *
     * @param buf the buffer; no index moves
     * @param index absolute index of the first byte
     * @param length the number of bytes
     */
    public static boolean isValidUtf8(ByteBuf buf, int index, int length) {
        int end = index + length;
        int i = index;
        while (i < end) {
            int b0 = buf.getByte(i) & 0xff;
            if (b0 < 0x80) {
                i++;
                continue;
            }
            int n;
            int lo = 0x80;
            int hi = 0xbf;
            if (b0 >= 0xc2 && b0 <= 0xdf) {
                n = 1;
            } else if (b0 >= 0xe0 && b0 <= 0xef) {
                n = 2;
                if (b0 == 0xe0) {
                    lo = 0xa0; // overlong
                } else if (b0 == 0xed) {
                    hi = 0x9f; // surrogates
                }
            } else if (b0 >= 0xf0 && b0 <= 0xf4) {
                n = 3;
                if (b0 == 0xf0) {
                    lo = 0x90; // overlong
                } else if (b0 == 0xf4) {
                    hi = 0x8f; // above U+10FFFF
                }
            } else {
                return false;
            }
            if (i + n >= end) {
                return false;
            }
            int b1 = buf.getByte(i + 1) & 0xff;
            if (b1 < lo || b1 > hi) {
                return false;
            }
            for (int k = 2; k <= n; k++) {
                int b = buf.getByte(i + k) & 0xff;
                if (b < 0x80 || b > 0xbf) {
                    return false;
                }
            }
            i += n + 1;
        }
        return true;
    }

    /**
     * True if the readable bytes decode in {@code charset} without malformed or unmappable input.
     *
     * @param buf the buffer; no index moves
     * @param charset the encoding to check against
     * @return true if the bytes are valid text
     */
    public static boolean isText(ByteBuf buf, Charset charset) {
        return isText(buf, buf.readerIndex(), buf.readableBytes(), charset);
    }

    /**
     * {@return true if {@code [index, index + length)} decodes in {@code charset} without malformed or
     * unmappable input}
     *
     * @param buf the buffer; no index moves
     * @param index absolute index of the first byte
     * @param length the number of bytes
     * @param charset the encoding to check against
     */
    public static boolean isText(ByteBuf buf, int index, int length, Charset charset) {
        if (charset.equals(StandardCharsets.UTF_8)) {
            return isValidUtf8(buf, index, length);
        }
        if (charset.equals(StandardCharsets.US_ASCII)) {
            return buf.forEachByte(index, length, b -> b >= 0) < 0;
        }
        try {
            charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                   .onUnmappableCharacter(CodingErrorAction.REPORT).decode(buf.nioBuffer(index, length));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ comparison

    /**
     * A hash of the readable bytes, equal for equal content whatever the buffer kind.
     *
     * @param buf the buffer
     * @return the hash
     */
    public static int hashCode(ByteBuf buf) {
        int index = buf.readerIndex();
        int end = buf.writerIndex();
        int hash = 1;
        for (; index + 4 <= end; index += 4) {
            hash = 31 * hash + buf.getInt(index);
        }
        for (; index < end; index++) {
            hash = 31 * hash + buf.getByte(index);
        }
        return hash;
    }

    /**
     * True if the readable bytes of both buffers are the same.
     *
     * @param a one buffer
     * @param b the other buffer
     * @return true if the contents are equal
     */
    public static boolean equals(ByteBuf a, ByteBuf b) {
        int length = a.readableBytes();
        return length == b.readableBytes() && equals(a, a.readerIndex(), b, b.readerIndex(), length);
    }

    /**
     * True if {@code a[aIndex, aIndex + length)} equals {@code b[bIndex, bIndex + length)}.
     *
     * @param a one buffer
     * @param aIndex absolute index in {@code a}
     * @param b the other buffer
     * @param bIndex absolute index in {@code b}
     * @param length the number of bytes to compare
     * @return true if the ranges are equal
     */
    public static boolean equals(ByteBuf a, int aIndex, ByteBuf b, int bIndex, int length) {
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            if (a.getLong(aIndex + i) != b.getLong(bIndex + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (a.getByte(aIndex + i) != b.getByte(bIndex + i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Compares readable bytes as unsigned values, then by length.
     *
     * @param a one buffer
     * @param b the other buffer
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    public static int compare(ByteBuf a, ByteBuf b) {
        int aIndex = a.readerIndex();
        int bIndex = b.readerIndex();
        int length = Math.min(a.readableBytes(), b.readableBytes());
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            // Big-endian longs compare unsigned exactly like their bytes compare lexicographically.
            int c = Long.compareUnsigned(a.getLong(aIndex + i), b.getLong(bIndex + i));
            if (c != 0) {
                return c;
            }
        }
        for (; i < length; i++) {
            int c = Integer.compare(a.getByte(aIndex + i) & 0xff, b.getByte(bIndex + i) & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.readableBytes(), b.readableBytes());
    }

    /**
     * The index in {@code haystack} where {@code needle}'s readable bytes first occur among its readable bytes,
     * or -1.
     *
     * @param needle the bytes to find
     * @param haystack the bytes to search
     * @return the absolute index in {@code haystack}, or -1
     */
    public static int indexOf(ByteBuf needle, ByteBuf haystack) {
        int n = needle.readableBytes();
        int start = haystack.readerIndex();
        int last = haystack.writerIndex() - n;
        if (n == 0) {
            return start;
        }
        byte first = needle.getByte(needle.readerIndex());
        for (int i = start; i <= last; i++) {
            if (haystack.getByte(i) == first && equals(haystack, i, needle, needle.readerIndex(), n)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A copy of the readable bytes as a new array.
     *
     * @param buf the buffer; no index moves
     * @return the new array
     */
    public static byte[] getBytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        return bytes;
    }
}
