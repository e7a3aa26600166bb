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
 * <pre>{@code
 * ch.pipeline().addLast(new HttpServerCodec(),
 *         WebSocketServerProtocolHandler.builder("/ws")
 *                 .extensions(PerMessageDeflateServerNegotiator.acceptAll())   // compression, if the client offers it
 *                 .build(),
 *         new MyFrameHandler());   // sees WebSocketHandshakeComplete, then frames
 * }</pre>
 *
 * <p>Everything is bounded: frame and message sizes (close 1009 beyond, before anything is
 * buffered, {@link io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig}), the time to the
 * handshake and to the peer's close frame, and the pongs owed to a peer that does not read. Frames
 * are checked strictly (masking, RSV bits, opcodes, control frame sizes, UTF-8 of text as it
 * arrives); a violation closes with the status RFC 6455 names.
 *
 * <p>Extensions (RFC 6455 §9) plug in through
 * {@link io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator}: each accepted
 * {@link io.rill.handler.codec.http.websocketx.WebSocketExtension} claims RSV bits and adds a frame
 * decoder and encoder of its own. permessage-deflate (RFC 7692) ships in {@code .extensions}.
 *
 * <p>{@link io.rill.handler.codec.http.websocketx.WebSocketHandlers} makes the handlers that carry
 * a WebSocket after any handshake; Rill's HTTP/2 module builds WebSocket over HTTP/2 (RFC 8441) on
 * it, configured by the same {@code WebSocketServerProtocolHandler.Builder} and
 * {@code WebSocketClientHandshaker}.
 */
package io.rill.handler.codec.http.websocketx;
