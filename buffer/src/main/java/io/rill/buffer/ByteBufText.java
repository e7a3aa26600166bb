package io.rill.buffer;

import io.rill.util.AsciiString;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Text in and out of buffers: the bodies behind {@link ByteBuf}'s {@code toString(Charset)},
 * {@code getCharSequence} and {@code setCharSequence} families, and the UTF-8 encoder that writes
 * straight into a buffer's memory. Kept apart so the buffer classes hold only index bookkeeping.
 */
final class ByteBufText {

    /** What an unmappable char or an unpaired surrogate becomes. */
    private static final byte REPLACEMENT = '?';

    private ByteBufText() {
    }

    /** The body of {@link ByteBuf#toString(int, int, Charset)}: decodes in place when there is an array. */
    static String decode(ByteBuf buf, int index, int length, Charset charset) {
        buf.checkIndex(index, length);
        if (length == 0) {
            return "";
        }
        if (buf.hasArray()) {
            return new String(buf.array(), buf.arrayOffset() + index, length, charset);
        }
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes, 0, length);
        return new String(bytes, charset);
    }

    /**
     * The body of {@link ByteBuf#getCharSequence(int, int, Charset)}: the single-byte charsets
     * become an {@link io.rill.util.AsciiString} over a copy, skipping the decoder.
     */
    static CharSequence decodeSequence(ByteBuf buf, int index, int length, Charset charset) {
        buf.checkIndex(index, length);
        if (charset.equals(StandardCharsets.US_ASCII) || charset.equals(StandardCharsets.ISO_8859_1)) {
            byte[] bytes = new byte[length];
            buf.getBytes(index, bytes, 0, length);
            return asciiString(bytes);
        }
        return buf.toString(index, length, charset);
    }

    /** An AsciiString that takes {@code bytes} as they are, without a copy. */
    static AsciiString asciiString(byte[] bytes) {
        return new AsciiString(bytes, false);
    }

    /** The shared body of setCharSequence and writeCharSequence; {@code grow} for writes. */
    static int setCharSequence(AbstractByteBuf buf, int index, CharSequence seq, Charset charset, boolean grow) {
        if (charset.equals(StandardCharsets.UTF_8)) {
            int length = ByteBufUtil.utf8Bytes(seq);
            reserve(buf, index, length, grow);
            int written = encodeUtf8(buf, index, seq);
            assert written == length;
            return written;
        }
        boolean ascii = charset.equals(StandardCharsets.US_ASCII);
        if (ascii || charset.equals(StandardCharsets.ISO_8859_1)) {
            int length = seq.length();
            reserve(buf, index, length, grow);
            if (seq instanceof AsciiString && ((AsciiString) seq).arrayOffset() >= 0) {
                AsciiString s = (AsciiString) seq;
                buf.setBytes(index, s.array(), s.arrayOffset(), length);
                return length;
            }
            int limit = ascii ? 0x7f : 0xff;
            for (int i = 0; i < length; i++) {
                char c = seq.charAt(i);
                buf._setByte(index + i, c > limit ? REPLACEMENT : c);
            }
            return length;
        }
        byte[] bytes = seq.toString().getBytes(charset);
        reserve(buf, index, bytes.length, grow);
        buf.setBytes(index, bytes, 0, bytes.length);
        return bytes.length;
    }

    /** Makes or checks room for {@code length} bytes at {@code index}; {@code grow} for writes. */
    private static void reserve(AbstractByteBuf buf, int index, int length, boolean grow) {
        if (grow) {
            buf.ensureWritable0(length);
        } else {
            buf.checkIndex(index, length);
        }
        if (buf.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
    }

    /** Writes UTF-8 at {@code index} (room already checked); returns the bytes written. */
    static int encodeUtf8(AbstractByteBuf buf, int index, CharSequence seq) {
        int start = index;
        int length = seq.length();
        for (int i = 0; i < length; i++) {
            char c = seq.charAt(i);
            if (c < 0x80) {
                buf._setByte(index++, c);
            } else if (c < 0x800) {
                buf._setByte(index++, 0xc0 | c >> 6);
                buf._setByte(index++, 0x80 | c & 0x3f);
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(seq.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, seq.charAt(++i));
                    buf._setByte(index++, 0xf0 | cp >> 18);
                    buf._setByte(index++, 0x80 | cp >> 12 & 0x3f);
                    buf._setByte(index++, 0x80 | cp >> 6 & 0x3f);
                    buf._setByte(index++, 0x80 | cp & 0x3f);
                } else {
                    buf._setByte(index++, REPLACEMENT);
                }
            } else {
                buf._setByte(index++, 0xe0 | c >> 12);
                buf._setByte(index++, 0x80 | c >> 6 & 0x3f);
                buf._setByte(index++, 0x80 | c & 0x3f);
            }
        }
        return index - start;
    }
}
