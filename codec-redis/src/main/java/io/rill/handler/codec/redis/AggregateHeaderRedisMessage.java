package io.rill.handler.codec.redis;

/**
 * The start of an aggregate as the {@link RedisDecoder} streams it: its elements follow as messages
 * of their own (aggregates nested in it included), which the {@link RedisAggregator} collects into
 * an {@link AggregateRedisMessage}.
 *
 * @param type   the kind of aggregate
 * @param length the count on the wire: elements, or pairs for a map and an attribute; 0 or more, or
 *               {@link #STREAMED_LENGTH} for a RESP3 streamed aggregate ({@code *?}, {@code %?},
 *               {@code ~?}), whose elements end with a {@link StreamEndRedisMessage}
 */
public record AggregateHeaderRedisMessage(RedisAggregateType type, int length) implements RedisMessage {

    /** The length of a streamed aggregate, whose element count is not known in advance. */
    public static final int STREAMED_LENGTH = -1;

    /**
     * Checks the fields.
     *
     * @param type as above
     * @param length as above
     */
    public AggregateHeaderRedisMessage {
        if (type == null) {
            throw new NullPointerException("type");
        }
        if (length < STREAMED_LENGTH) {
            throw new IllegalArgumentException(type + " length " + length + " (expected: >= 0, or -1 for streamed)");
        }
    }

    /** {@return true for a streamed aggregate, ended by a {@link StreamEndRedisMessage}} */
    public boolean isStreamed() {
        return length == STREAMED_LENGTH;
    }

    /** {@return how many elements follow: the length, doubled for a map or an attribute; -1 when streamed} */
    public int elementCount() {
        return isStreamed() ? STREAMED_LENGTH : length * type.elementsPerEntry();
    }
}
