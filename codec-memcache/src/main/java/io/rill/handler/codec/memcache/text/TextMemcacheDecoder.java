package io.rill.handler.codec.memcache.text;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * The body of both text decoders: finds a line (ended by {@code \r\n}, or a bare {@code \n} as
 * memcached accepts), cuts it into space-separated tokens in place, lets the subclass read them, and
 * when the line announces a data block waits for exactly that many bytes and its {@code \r\n}, then
 * hands the data on as a slice of the input (not a copy).
 *
 * <p>Every wait is bounded before anything is buffered: a line at most {@code maxLineLength} bytes
 * with its end, a data block at most {@code maxDataLength}, at most {@code maxKeys} keys in one
 * line. After an error the decoder drops every later byte: the line that failed may have announced
 * a data block, and no later byte is known to start a command.
 */
abstract class TextMemcacheDecoder extends ByteToMessageDecoder {

    /** Longer than any command memcached's own clients send with a few keys, far under memory concerns. */
    static final int DEFAULT_MAX_LINE_LENGTH = 2048;
    /** memcached's default largest item. */
    static final int DEFAULT_MAX_DATA_LENGTH = 1 << 20;
    /** Keys in one get; memcached serves more, but a line of 2 KiB holds at most a few hundred. */
    static final int DEFAULT_MAX_KEYS = 128;

    private final int maxLineLength;
    private final int maxDataLength;
    private final int maxKeys;
    /** Token i is {@code [tokens[2i], tokens[2i+1])} in the input; room for the longest line allowed. */
    private final int[] tokens;
    /** The line waiting for its data block, or null. */
    private Object head;
    /** The data length {@link #head} announced. */
    private int dataLength;
    private boolean broken;

    TextMemcacheDecoder(int maxLineLength, int maxDataLength, int maxKeys) {
        if (maxLineLength < 64) {
            throw new IllegalArgumentException("maxLineLength must be at least 64: " + maxLineLength);
        }
        if (maxDataLength < 0) {
            throw new IllegalArgumentException("maxDataLength must not be negative: " + maxDataLength);
        }
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be at least 1: " + maxKeys);
        }
        this.maxLineLength = maxLineLength;
        this.maxDataLength = maxDataLength;
        this.maxKeys = maxKeys;
        // A get or gat line: the command, the exptime of gat, then the keys; other lines hold at most 7.
        this.tokens = new int[2 * Math.max(maxKeys + 2, 8)];
    }

    final int maxKeys() {
        return maxKeys;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            while (!broken) {
                if (head != null) {
                    if (in.readableBytes() < dataLength + 2) {
                        return;
                    }
                    int end = in.readerIndex() + dataLength;
                    if (in.getByte(end) != '\r' || in.getByte(end + 1) != '\n') {
                        throw new TextMemcacheDecoderException("a data block of " + dataLength
                                + " bytes not ended by \\r\\n: " + TextWire.quote(in, end, Math.min(end + 2, in.writerIndex())));
                    }
                    ByteBuf data = dataLength == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(dataLength);
                    in.skipBytes(2);
                    Object whole = withData(head, data);
                    head = null;
                    out.add(whole);
                    continue;
                }
                int start = in.readerIndex();
                int window = Math.min(in.readableBytes(), maxLineLength);
                int lf = in.indexOf(start, start + window, (byte) '\n');
                if (lf < 0) {
                    if (window == maxLineLength) {
                        throw new TextMemcacheDecoderException("a line without its end in maxLineLength ("
                                + maxLineLength + ") bytes: " + TextWire.quote(in, start, start + window));
                    }
                    return;
                }
                int end = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
                int count = tokenize(in, start, end);
                in.readerIndex(lf + 1);
                Object message = line(in, tokens, count, start, end);
                if (message != null) {
                    out.add(message);
                }
            }
            in.skipBytes(in.readableBytes());
        } catch (TextMemcacheDecoderException e) {
            broken = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    private int tokenize(ByteBuf in, int start, int end) {
        int count = 0;
        int i = start;
        while (true) {
            while (i < end && in.getByte(i) == ' ') {
                i++;
            }
            if (i == end) {
                return count;
            }
            if (2 * count == tokens.length) {
                return count + 1; // more words than fit: the subclass refuses, or reads the line raw
            }
            int from = i;
            while (i < end && in.getByte(i) != ' ') {
                i++;
            }
            tokens[2 * count] = from;
            tokens[2 * count + 1] = i;
            count++;
        }
    }

    /** {@return how many tokens fit; a line with more reaches {@link #line} with a count one over it} */
    final int maxTokens() {
        return tokens.length / 2;
    }

    /**
     * Reads one line's tokens (at most {@link #maxTokens}; a count over it says the line had more). Returns the whole message, or null after {@link #expectData} when a
     * data block follows.
     */
    abstract Object line(ByteBuf in, int[] tokens, int count, int lineStart, int lineEnd);

    /** The message a line that waited for {@code data} becomes; takes over {@code data}. */
    abstract Object withData(Object head, ByteBuf data);

    /** Reads the {@code <bytes>} token and makes the decoder wait for that much data after the line. */
    final void expectData(Object head, ByteBuf in, int from, int to) {
        long n = TextWire.unsigned(in, from, to, Integer.MAX_VALUE, "data length");
        if (n > maxDataLength) {
            throw new TextMemcacheDecoderException("a data block of " + n + " bytes, over maxDataLength ("
                    + maxDataLength + ")");
        }
        this.head = head;
        this.dataLength = (int) n;
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        head = null;
    }
}
