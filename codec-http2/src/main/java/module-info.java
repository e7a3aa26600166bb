/**
 * HTTP/2 (RFC 9113) with HPACK (RFC 7541), server and client, on top of the HTTP/1.1 module
 * {@code io.rill.codec.http}, which it requires transitively: its message model is the one the
 * adapters translate to and from.
 *
 * <ul>
 *   <li>{@code io.rill.handler.codec.http2}: the frame codec and its limits, one child channel per
 *       stream, the h2c upgrade (both sides), the cleartext prior-knowledge detector, ALPN
 *       negotiation between {@code h2} and {@code http/1.1}, and the adapters that run HTTP/1
 *       handlers on a stream; HPACK is package-private inside it.</li>
 *   <li>{@code io.rill.handler.codec.http2.websocketx}: WebSocket over HTTP/2 (RFC 8441), server
 *       and client, configured like WebSocket over HTTP/1.1.</li>
 * </ul>
 *
 * <p>A server that speaks both versions over TLS puts an
 * {@link io.rill.handler.codec.http2.HttpAlpnNegotiationHandler} after its {@code SslHandler}; see
 * the package {@code io.rill.handler.codec.http2} for where to start.
 */
module io.rill.codec.http2 {
    requires transitive io.rill.codec.http;

    exports io.rill.handler.codec.http2;
    exports io.rill.handler.codec.http2.websocketx;
}
