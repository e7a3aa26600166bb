package io.rill.handler.codec.redis;

/**
 * A RESP3 blob error ({@code !21\r\nSYNTAX invalid syntax\r\n}): an error sent with its length, so
 * it may hold any byte, CR and LF included.
 *
 * @param content the text, decoded as UTF-8
 */
public record BulkErrorRedisMessage(String content) implements RedisMessage {

    /**
     * Checks that there is content.
     *
     * @param content as above
     */
    public BulkErrorRedisMessage {
        if (content == null) {
            throw new NullPointerException("content");
        }
    }
}
