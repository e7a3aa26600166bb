/**
 * The memcached binary protocol: a 24-byte header, then extras, key and value. A client's
 * pipeline holds {@link io.rill.handler.codec.memcache.binary.BinaryMemcacheResponseDecoder} and
 * {@link io.rill.handler.codec.memcache.binary.BinaryMemcacheEncoder}, a server's
 * {@link io.rill.handler.codec.memcache.binary.BinaryMemcacheRequestDecoder} and the same encoder;
 * both sides exchange {@link io.rill.handler.codec.memcache.binary.BinaryMemcacheMessage}s, whole.
 *
 * <pre>{@code
 * ch.writeAndFlush(BinaryMemcacheMessage.request(BinaryMemcacheOpcode.SET).key("user:42")
 *         .extras(flagsAndExpiry).value(Unpooled.copiedBuffer(json, UTF_8)).build());
 * }</pre>
 *
 * <p>Bounds, checked at the header before anything is buffered: the key at most 250 bytes (the
 * server's own limit), the extras at most 255 and never longer than the body, the body at most
 * {@code maxBodyLength} (1 MiB and the key and extras by default, memcached's default item size).
 * A header with another magic byte, or lengths that do not fit, is a
 * {@link io.rill.handler.codec.memcache.binary.MemcacheDecoderException}, after which the decoder
 * drops everything: the stream has no resynchronisation point.
 */
package io.rill.handler.codec.memcache.binary;
