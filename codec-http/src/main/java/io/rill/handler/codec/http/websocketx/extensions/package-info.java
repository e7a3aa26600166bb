/**
 * WebSocket extensions: the {@code Sec-WebSocket-Extensions} element parser
 * ({@link io.rill.handler.codec.http.websocketx.extensions.ExtensionElement}) and permessage-deflate
 * (RFC 7692) with all four parameters, for servers
 * ({@link io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateServerNegotiator}, given to
 * {@code WebSocketServerProtocolHandler.Builder#extensions}) and clients
 * ({@link io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator}, given to
 * {@code WebSocketClientProtocolHandler.of(uri, negotiator)} or a {@code WebSocketClientHandshaker}).
 * Compression uses the JDK's {@link java.util.zip.Deflater} and {@link java.util.zip.Inflater}.
 */
package io.rill.handler.codec.http.websocketx.extensions;
