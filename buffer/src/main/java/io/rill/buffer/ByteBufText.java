package io.rill.buffer;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Text in and out of buffers: the bodies behind {@link ByteBuf}'s {@code toString(Charset)} and
 * {@code getCharSequence} family, kept apart so the buffer classes hold only index bookkeeping.
 */
final class ByteBufText {

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
            return ByteBufUtil.asciiString(bytes);
        }
        return buf.toString(index, length, charset);
    }
}
