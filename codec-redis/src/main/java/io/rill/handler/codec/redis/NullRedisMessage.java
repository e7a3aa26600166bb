package io.rill.handler.codec.redis;

/**
 * The nulls of RESP: RESP3 has one ({@code _\r\n}); RESP2 has a null bulk string ({@code $-1\r\n})
 * and a null array ({@code *-1\r\n}). Each keeps its wire form, so a proxy passes on what it got.
 */
public enum NullRedisMessage implements RedisMessage {
    /** RESP3's {@code _}. */
    NULL,
    /** RESP2's {@code $-1}, the reply of {@code GET} on a missing key. */
    NULL_BULK_STRING,
    /** RESP2's {@code *-1}, the reply of a blocking command that timed out. */
    NULL_ARRAY
}
