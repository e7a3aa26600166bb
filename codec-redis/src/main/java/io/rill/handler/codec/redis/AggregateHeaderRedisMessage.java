package io.rill.handler.codec.redis;

/**
 * The start of an aggregate as the {@link RedisDecoder} streams it: its elements follow as messages
 * of their own (aggregates nested in it included), which the {@link RedisAggregator} collects into
 * an {@link AggregateRedisMessage}.
 *
 * @param type   the kind of aggregate
 * @param length the count on the wire: elements, or pairs for a map and an attribute; 0 or more
 */
public record AggregateHeaderRedisMessage(RedisAggregateType type, int length) implements RedisMessage {

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
        if (length < 0) {
            throw new IllegalArgumentException(type + " length " + length + " (expected: >= 0)");
        }
    }

    /** {@return how many elements follow: the length, doubled for a map or an attribute} */
    public int elementCount() {
        return length * type.elementsPerEntry();
    }
}
