package io.rill.handler.codec.redis;

/**
 * RESP3's end of a streamed aggregate ({@code .\r\n}): the {@link RedisDecoder} passes it on after
 * the last element of an aggregate whose header had length {@code ?}
 * ({@link AggregateHeaderRedisMessage#STREAMED_LENGTH}); the {@link RedisAggregator} closes the
 * aggregate there.
 */
public enum StreamEndRedisMessage implements RedisMessage {
    /** The only instance. */
    INSTANCE
}
