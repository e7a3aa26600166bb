package io.rill.handler.codec.redis;

/**
 * The start of a bulk string that the {@link RedisDecoder} streams because it had not all arrived:
 * its {@link BulkStringRedisContent} pieces follow, the last one marked {@linkplain
 * BulkStringRedisContent#isLast() last}. The {@link RedisAggregator} joins them into a
 * {@link FullBulkStringRedisMessage}; a handler that wants to stream large values handles them itself.
 *
 * <p>A RESP3 streamed string ({@code $?}, then {@code ;N} chunks ending with {@code ;0}) starts with
 * {@link #STREAMED}; its pieces carry the chunks' bytes, and the last (empty) piece marks {@code ;0}.
 * The encoder does not write streamed strings: encode the aggregated {@link FullBulkStringRedisMessage}.
 *
 * @param length the length in bytes the peer announced, 0 or more; -1 for {@link #STREAMED}
 */
public record BulkStringHeaderRedisMessage(int length) implements RedisMessage {

    /** The header of a streamed string, whose length is not known in advance. */
    public static final BulkStringHeaderRedisMessage STREAMED = new BulkStringHeaderRedisMessage(-1);

    /**
     * Checks the length.
     *
     * @param length as above
     */
    public BulkStringHeaderRedisMessage {
        if (length < -1) {
            throw new IllegalArgumentException("bulk string length " + length + " (expected: >= 0, or -1 for streamed)");
        }
    }

    /** {@return true for a streamed string's header} */
    public boolean isStreamed() {
        return length == -1;
    }
}
