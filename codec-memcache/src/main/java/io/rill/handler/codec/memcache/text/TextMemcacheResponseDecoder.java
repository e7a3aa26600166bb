package io.rill.handler.codec.memcache.text;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;

/**
 * A client's decoder: text-protocol reply lines, a {@code VALUE} with its data block, as
 * {@link TextMemcacheResponse}s. Bounds in the package description; an unknown or malformed reply,
 * or a data block not ended by {@code \r\n}, is a {@link TextMemcacheDecoderException}, after which
 * every later byte is dropped (the client can no longer pair replies with requests).
 */
public final class TextMemcacheResponseDecoder extends TextMemcacheDecoder {

    /** Lines up to 2 KiB, values up to 1 MiB (memcached's item size). */
    public TextMemcacheResponseDecoder() {
        this(DEFAULT_MAX_LINE_LENGTH, DEFAULT_MAX_DATA_LENGTH);
    }

    /**
     * A decoder with its own bounds.
     *
     * @param maxLineLength the longest reply line, its {@code \r\n} included (at least 64)
     * @param maxDataLength the largest value
     */
    public TextMemcacheResponseDecoder(int maxLineLength, int maxDataLength) {
        // A reply line has at most five words; an error text's spaces are read from the raw line.
        super(maxLineLength, maxDataLength, 1);
    }

    @Override
    Object line(ByteBuf in, int[] t, int count, int lineStart, int lineEnd) {
        if (count == 0) {
            throw new TextMemcacheDecoderException("an empty reply line");
        }
        byte first = in.getByte(t[0]);
        if (first >= '0' && first <= '9') {
            single(count, in, lineStart, lineEnd);
            return TextMemcacheResponse.number(TextWire.unsigned(in, t[0], t[1], -1L, "incr/decr reply"));
        }
        TextMemcacheResponse.Type type = type(in, t[0], t[1]);
        if (type == null) {
            throw TextWire.bad("reply (unknown)", in, lineStart, lineEnd);
        }
        switch (type) {
            case VALUE -> {
                if (count != 4 && count != 5) {
                    throw TextWire.bad("VALUE line", in, lineStart, lineEnd);
                }
                String key = TextWire.key(in, t[2], t[3]);
                long flags = TextWire.unsigned(in, t[4], t[5], TextMemcacheRequest.MAX_FLAGS, "flags");
                boolean hasCas = count == 5;
                long cas = hasCas ? TextWire.unsigned(in, t[8], t[9], -1L, "cas unique") : 0;
                expectData(new TextMemcacheResponse(type, key, flags, cas, hasCas, null, io.rill.buffer.Unpooled.EMPTY_BUFFER),
                        in, t[6], t[7]);
                return null;
            }
            case CLIENT_ERROR, SERVER_ERROR, VERSION -> {
                return new TextMemcacheResponse(type, null, 0, 0, false, rest(in, t[1], lineEnd), io.rill.buffer.Unpooled.EMPTY_BUFFER);
            }
            case ERROR -> {
                return count == 1 ? TextMemcacheResponse.ERROR
                        : new TextMemcacheResponse(type, null, 0, 0, false, rest(in, t[1], lineEnd), io.rill.buffer.Unpooled.EMPTY_BUFFER);
            }
            default -> {
                single(count, in, lineStart, lineEnd);
                return switch (type) {
                    case END -> TextMemcacheResponse.END;
                    case STORED -> TextMemcacheResponse.STORED;
                    case NOT_STORED -> TextMemcacheResponse.NOT_STORED;
                    case EXISTS -> TextMemcacheResponse.EXISTS;
                    case NOT_FOUND -> TextMemcacheResponse.NOT_FOUND;
                    case DELETED -> TextMemcacheResponse.DELETED;
                    default -> TextMemcacheResponse.TOUCHED;
                };
            }
        }
    }

    private static TextMemcacheResponse.Type type(ByteBuf in, int from, int to) {
        for (TextMemcacheResponse.Type type : TextMemcacheResponse.Type.values()) {
            if (type != TextMemcacheResponse.Type.NUMBER && TextWire.is(in, from, to, type.wireName)) {
                return type;
            }
        }
        return null;
    }

    /** The text after the first word: printable ASCII, spaces kept but the one that separates it. */
    private static String rest(ByteBuf in, int from, int lineEnd) {
        int start = from < lineEnd ? from + 1 : from;
        for (int i = start; i < lineEnd; i++) {
            byte b = in.getByte(i);
            if (b < ' ' || b > '~') {
                throw TextWire.bad("reply text (not printable ASCII)", in, start, lineEnd);
            }
        }
        return in.toString(start, lineEnd - start, StandardCharsets.US_ASCII);
    }

    private static void single(int count, ByteBuf in, int lineStart, int lineEnd) {
        if (count != 1) {
            throw TextWire.bad("reply (words after a status)", in, lineStart, lineEnd);
        }
    }

    @Override
    Object withData(Object head, ByteBuf data) {
        return ((TextMemcacheResponse) head).replace(data);
    }
}
