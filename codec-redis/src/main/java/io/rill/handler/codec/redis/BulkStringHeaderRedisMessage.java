package io.rill.handler.codec.redis;

/**
 * The start of a bulk string that the {@link RedisDecoder} streams because it had not all arrived:
 * its {@link BulkStringRedisContent} pieces follow, the last one marked {@linkplain
 * BulkStringRedisContent#isLast() last}. The {@link RedisAggregator} joins them into a
 * {@link FullBulkStringRedisMessage}; a handler that wants to stream large values handles them itself.
 *
 * @param length the length in bytes the peer announced, 0 or more
 */
public record BulkStringHeaderRedisMessage(int length) implements RedisMessage {

    /**
     * Checks the length.
     *
     * @param length as above
     */
    public BulkStringHeaderRedisMessage {
        if (length < 0) {
            throw new IllegalArgumentException("bulk string length " + length + " (expected: >= 0)");
        }
    }
}
