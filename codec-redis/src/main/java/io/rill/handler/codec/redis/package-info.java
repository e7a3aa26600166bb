/**
 * The Redis serialization protocol, RESP2 and RESP3 (https://redis.io/docs/latest/develop/reference/protocol-spec/).
 *
 * <p>A client pipeline is {@link io.rill.handler.codec.redis.RedisDecoder},
 * {@link io.rill.handler.codec.redis.RedisAggregator} and
 * {@link io.rill.handler.codec.redis.RedisEncoder#INSTANCE}; its handler writes commands
 * ({@link io.rill.handler.codec.redis.AggregateRedisMessage#command}) and reads whole replies. A
 * server uses the same three with inline commands on
 * ({@code new RedisDecoder(RedisLimits.DEFAULT, true)}), so that {@code redis-cli} and telnet users
 * are understood, and answers each command in order (RESP is pipelined: replies go in the order of
 * the commands).
 *
 * <p>Message types: {@link io.rill.handler.codec.redis.SimpleStringRedisMessage},
 * {@link io.rill.handler.codec.redis.ErrorRedisMessage},
 * {@link io.rill.handler.codec.redis.IntegerRedisMessage},
 * {@link io.rill.handler.codec.redis.FullBulkStringRedisMessage},
 * {@link io.rill.handler.codec.redis.AggregateRedisMessage} (array, map, set, push, attribute),
 * {@link io.rill.handler.codec.redis.NullRedisMessage} (RESP3's null and RESP2's null bulk string and
 * array), and RESP3's {@link io.rill.handler.codec.redis.DoubleRedisMessage},
 * {@link io.rill.handler.codec.redis.BooleanRedisMessage},
 * {@link io.rill.handler.codec.redis.BigNumberRedisMessage},
 * {@link io.rill.handler.codec.redis.VerbatimStringRedisMessage} and
 * {@link io.rill.handler.codec.redis.BulkErrorRedisMessage}. Messages that hold buffers are
 * reference counted; an aggregate owns its children.
 *
 * <p>Every length is bounded by {@link io.rill.handler.codec.redis.RedisLimits}, with defaults safer
 * than Redis's own; malformed input is a {@link io.rill.handler.codec.redis.RedisCodecException}
 * and closes the channel.
 */
package io.rill.handler.codec.redis;
