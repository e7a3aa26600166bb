package io.rill.handler.codec.redis;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;

/**
 * One piece of a streamed bulk string (after its {@link BulkStringHeaderRedisMessage}); the pieces'
 * bytes add up to the announced length, and the last piece (possibly empty) says so.
 */
public final class BulkStringRedisContent implements ByteBufHolder, RedisMessage {

    private final ByteBuf content;
    private final boolean last;

    /**
     * Wraps {@code content}, whose ownership passes to the message.
     *
     * @param content the bytes of this piece
     * @param last    true for the bulk string's last piece (the encoder then ends it with CRLF)
     */
    public BulkStringRedisContent(ByteBuf content, boolean last) {
        if (content == null) {
            throw new NullPointerException("content");
        }
        this.content = content;
        this.last = last;
    }

    /** {@return true if this is the bulk string's last piece} */
    public boolean isLast() {
        return last;
    }

    @Override
    public ByteBuf content() {
        return content;
    }

    @Override
    public BulkStringRedisContent replace(ByteBuf content) {
        return new BulkStringRedisContent(content, last);
    }

    @Override
    public String toString() {
        return "BulkStringRedisContent[" + RedisText.describe(content) + (last ? ", last]" : "]");
    }
}
