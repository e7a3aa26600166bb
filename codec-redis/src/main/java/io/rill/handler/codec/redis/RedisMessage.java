package io.rill.handler.codec.redis;

/**
 * A message of the Redis serialization protocol (RESP2 and RESP3): a whole value such as a
 * {@link SimpleStringRedisMessage} or an {@link AggregateRedisMessage}, or one piece of a value
 * that the {@link RedisDecoder} streams ({@link BulkStringHeaderRedisMessage},
 * {@link BulkStringRedisContent}, {@link AggregateHeaderRedisMessage}) and the
 * {@link RedisAggregator} joins. Messages that hold buffers are {@link io.rill.buffer.ReferenceCounted}:
 * whoever receives one releases it.
 */
public interface RedisMessage {
}
