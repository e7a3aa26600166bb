package io.rill.handler.codec.redis;

/** A RESP3 boolean: {@code #t\r\n} or {@code #f\r\n}. */
public enum BooleanRedisMessage implements RedisMessage {
    /** {@code #t}. */
    TRUE,
    /** {@code #f}. */
    FALSE;

    /**
     * The message for {@code value}.
     *
     * @param value true or false
     * @return {@link #TRUE} or {@link #FALSE}
     */
    public static BooleanRedisMessage of(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** {@return the value} */
    public boolean value() {
        return this == TRUE;
    }
}
