/**
 * SOCKS4/4a and SOCKS5 messages and their codec, for clients and servers.
 *
 * <p>A SOCKS handshake is a short, strictly ordered exchange, so each message has a decoder of its
 * own: it decodes exactly one message, then removes itself and passes whatever followed to the next
 * handler (the next decoder a handler put in, or the tunnelled protocol). A SOCKS5 server pipeline
 * starts with {@link io.rill.handler.codec.socks.Socks5InitialRequestDecoder} and the
 * {@link io.rill.handler.codec.socks.SocksMessageEncoder}; its handler adds
 * {@link io.rill.handler.codec.socks.Socks5PasswordAuthRequestDecoder} or
 * {@link io.rill.handler.codec.socks.Socks5CommandRequestDecoder} when it answers. A client does the
 * same with the response decoders.
 *
 * <p>Every field is checked: versions, reserved bytes, address types, lengths (a SOCKS4 user id or
 * host name is NUL-terminated, so its decoder has a cap, 255 bytes by default). Bad input is a
 * {@link io.rill.handler.codec.socks.SocksProtocolException}, an over-long field a
 * {@link io.rill.handler.codec.socks.SocksFieldTooLongException}; after either the decoder drops
 * everything that follows, since a handshake cannot be resynchronised. Host names must be
 * printable ASCII (an IDN goes in its A-label form), so no control byte reaches a log line or
 * a resolver.
 */
package io.rill.handler.codec.socks;
