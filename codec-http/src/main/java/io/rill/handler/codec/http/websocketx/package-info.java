/**
 * WebSocket (RFC 6455, version 13) over HTTP/1.1, server and client.
 *
 * <p>A server puts a {@link io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler}
 * after its {@code HttpServerCodec}; a client puts a
 * {@link io.rill.handler.codec.http.websocketx.WebSocketClientProtocolHandler} after its
 * {@code HttpClientCodec}. Once the opening handshake succeeds they replace the HTTP handlers
 * with a strict {@link io.rill.handler.codec.http.websocketx.WebSocketFrameDecoder} and a
 * {@link io.rill.handler.codec.http.websocketx.WebSocketFrameEncoder}, answer pings, complete the
 * close handshake and fire {@link io.rill.handler.codec.http.websocketx.WebSocketHandshakeComplete};
 * the application then reads and writes {@link io.rill.handler.codec.http.websocketx.WebSocketFrame}s,
 * which are reference counted: whoever receives one releases it. Add a
 * {@link io.rill.handler.codec.http.websocketx.WebSocketFrameAggregator} to receive whole messages.
 *
 * <p>Extensions (RFC 6455 §9) plug in through
 * {@link io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator}: each accepted
 * {@link io.rill.handler.codec.http.websocketx.WebSocketExtension} claims RSV bits and adds a frame
 * decoder and encoder of its own. None ships yet; permessage-deflate (RFC 7692) is the first planned.
 */
package io.rill.handler.codec.http.websocketx;
