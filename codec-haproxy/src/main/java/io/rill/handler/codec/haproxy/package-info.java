/**
 * The PROXY protocol (HAProxy's specification, versions 1 and 2): a load balancer that relays TCP
 * opens each connection to the server with a header naming the client's address.
 *
 * <p>{@link io.rill.handler.codec.haproxy.HAProxyMessageDecoder} goes first in a server's child
 * pipeline. It reads the header (version 1, a text line of at most 107 bytes, or version 2, binary,
 * of a bounded length), checks every field and the CRC32c when the header carries one, then
 * <b>removes itself</b>: the bytes after the header reach the next handler untouched. The header it
 * learned becomes an {@link io.rill.handler.codec.haproxy.HAProxyMessage} that is stored in the
 * channel attribute {@link io.rill.handler.codec.haproxy.HAProxyMessageDecoder#MESSAGE} and fired as
 * a user event. {@code Channel.remoteAddress()} still returns the address of the peer of the TCP
 * connection, that is the proxy; the client's address is
 * {@code channel.attr(HAProxyMessageDecoder.MESSAGE).get().sourceSocketAddress()}.
 *
 * <p>A header that is malformed, too long, or not a PROXY header at all is a
 * {@link io.rill.handler.codec.haproxy.HAProxyProtocolException} (too long:
 * {@link io.rill.handler.codec.haproxy.HAProxyHeaderTooLongException}) and closes the connection;
 * so does a header that is not complete within the decoder's deadline
 * ({@link io.rill.handler.codec.haproxy.HAProxyHeaderTimeoutException}, 5 seconds by default), so a
 * peer that sends a header slowly, or none, costs a bounded time.
 * {@link io.rill.handler.codec.haproxy.HAProxyMessageEncoder} writes headers, for a proxy or a client.
 */
package io.rill.handler.codec.haproxy;
