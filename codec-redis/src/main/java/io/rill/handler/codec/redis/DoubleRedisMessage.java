package io.rill.handler.codec.redis;

/**
 * A RESP3 double ({@code ,3.14\r\n}, {@code ,inf\r\n}, {@code ,-inf\r\n}, {@code ,nan\r\n}).
 *
 * @param value the value; infinities and NaN are allowed
 */
public record DoubleRedisMessage(double value) implements RedisMessage {
}
