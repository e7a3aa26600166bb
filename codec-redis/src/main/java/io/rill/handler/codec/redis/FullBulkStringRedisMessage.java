package io.rill.handler.codec.redis;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;
import io.rill.buffer.Unpooled;

/**
 * A whole RESP bulk string ({@code $5\r\nhello\r\n}): binary-safe bytes, the keys and values of
 * commands and replies. It owns its content; release the message when done. (RESP2's null bulk
 * string is {@link NullRedisMessage#NULL_BULK_STRING}.)
 */
public final class FullBulkStringRedisMessage implements ByteBufHolder, RedisMessage {

    private final ByteBuf content;

    /**
     * Wraps {@code content}, whose ownership passes to the message.
     *
     * @param content the bytes (its readable ones)
     */
    public FullBulkStringRedisMessage(ByteBuf content) {
        if (content == null) {
            throw new NullPointerException("content");
        }
        this.content = content;
    }

    /**
     * A bulk string of {@code text}'s UTF-8 bytes, on the heap.
     *
     * @param text the text
     * @return a new message
     */
    public static FullBulkStringRedisMessage of(String text) {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public ByteBuf content() {
        return content;
    }

    @Override
    public FullBulkStringRedisMessage replace(ByteBuf content) {
        return new FullBulkStringRedisMessage(content);
    }

    @Override
    public FullBulkStringRedisMessage retain() {
        content.retain();
        return this;
    }

    @Override
    public FullBulkStringRedisMessage touch(Object hint) {
        content.touch(hint);
        return this;
    }

    /** {@return the content decoded as UTF-8} */
    public String text() {
        return content.toString(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FullBulkStringRedisMessage other && content.equals(other.content);
    }

    @Override
    public int hashCode() {
        return content.hashCode();
    }

    @Override
    public String toString() {
        return "FullBulkStringRedisMessage[" + RedisText.describe(content) + "]";
    }
}
