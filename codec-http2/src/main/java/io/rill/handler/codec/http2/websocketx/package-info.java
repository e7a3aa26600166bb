/**
 * WebSocket over HTTP/2 (RFC 8441): a WebSocket on one stream of an HTTP/2 connection, opened by
 * an extended CONNECT ({@code :method CONNECT}, {@code :protocol websocket}) instead of an
 * HTTP/1.1 upgrade, with the stream's DATA frames carrying the WebSocket's bytes.
 *
 * <p>It lives here, not with the HTTP/1.1 WebSocket in {@code io.rill.handler.codec.http.websocketx},
 * because it needs both: the handshake rules, the frame codec and the limits come from that
 * package, unchanged, and this one only adds what HTTP/2 changes. A server configures both HTTP
 * versions with one {@link io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler.Builder}:
 * its {@code build()} makes the HTTP/1.1 handler, and
 * {@link io.rill.handler.codec.http2.websocketx.Http2WebSocketServerHandler#of
 * Http2WebSocketServerHandler.of(builder)} the handler for the pipeline of each stream (the
 * connection's codec needs {@code enableConnectProtocol(true)}, RFC 8441 §3).
 * {@link io.rill.handler.codec.http2.websocketx.Http2WebSocketClientHandler} is the client side: it
 * opens a stream on a connection whose server sent SETTINGS_ENABLE_CONNECT_PROTOCOL = 1, with the
 * offers of a {@link io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker}.
 *
 * <p>Once the handshake succeeded both sides run the same handlers as over HTTP/1.1 (strict
 * decoder with its frame and message limits, ping and close handling, extensions), behind an
 * adapter that maps the stream's ends as RFC 8441 §5 maps them to TCP: END_STREAM is the FIN,
 * RST_STREAM the RST. The stream's flow control is the WebSocket's back-pressure.
 */
package io.rill.handler.codec.http2.websocketx;
