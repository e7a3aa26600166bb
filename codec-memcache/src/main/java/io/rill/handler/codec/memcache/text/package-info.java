/**
 * The memcached text protocol's get/set family ({@code protocol.txt}): storage commands (set, add,
 * replace, append, prepend, cas) with flags, exptime, cas unique and noreply; get, gets, gat and
 * gats; delete, incr, decr, touch, version and quit; and their replies. A client's pipeline holds
 * {@link io.rill.handler.codec.memcache.text.TextMemcacheResponseDecoder} and
 * {@link io.rill.handler.codec.memcache.text.TextMemcacheRequestEncoder}, a server's
 * {@link io.rill.handler.codec.memcache.text.TextMemcacheRequestDecoder} and
 * {@link io.rill.handler.codec.memcache.text.TextMemcacheResponseEncoder}. A retrieval's reply is
 * one {@link io.rill.handler.codec.memcache.text.TextMemcacheResponse} per {@code VALUE}, then
 * {@code END}.
 *
 * <pre>{@code
 * ch.write(TextMemcacheRequest.store(TextMemcacheCommand.SET, "user:42", 0, 3600, Unpooled.copiedBuffer(json, UTF_8)));
 * ch.writeAndFlush(TextMemcacheRequest.gets("user:42", "user:43"));
 * }</pre>
 *
 * <p>Bounds, checked before anything is buffered: a line at most {@code maxLineLength} bytes with
 * its end (2 KiB by default), a data block at most {@code maxDataLength} (1 MiB, memcached's default
 * item size), a key 1 to 250 bytes of UTF-8 with no control character or space, at most
 * {@code maxKeys} keys in one retrieval (128), numbers in their ranges (flags 32 bits, exptime signed
 * 32 bits, cas unique and incr/decr values 64 bits, digits only). A data block must be followed by
 * {@code \r\n}. Anything else is a
 * {@link io.rill.handler.codec.memcache.text.TextMemcacheDecoderException} that quotes the input,
 * after which the decoder drops every later byte. Data blocks reach the application as slices of
 * the input and are written from the application's buffers: neither side copies a value.
 */
package io.rill.handler.codec.memcache.text;
