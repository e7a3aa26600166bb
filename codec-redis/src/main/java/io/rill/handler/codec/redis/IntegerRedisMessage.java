package io.rill.handler.codec.redis;

/**
 * A RESP integer ({@code :1000\r\n}), a signed 64-bit value.
 *
 * @param value the value
 */
public record IntegerRedisMessage(long value) implements RedisMessage {

    private static final IntegerRedisMessage[] SMALL = new IntegerRedisMessage[256];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = new IntegerRedisMessage(i - 1);
        }
    }

    /**
     * The message for {@code value}, shared for -1 to 254 (counts, flags and sizes are mostly small),
     * so that answering {@code DEL}, {@code EXISTS} or {@code INCR} allocates nothing.
     *
     * @param value the value
     * @return a message of that value
     */
    public static IntegerRedisMessage of(long value) {
        return value >= -1 && value < SMALL.length - 1 ? SMALL[(int) value + 1] : new IntegerRedisMessage(value);
    }
}
