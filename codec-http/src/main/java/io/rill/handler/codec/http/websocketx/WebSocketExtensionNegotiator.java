package io.rill.handler.codec.http.websocketx;

import java.util.List;

/**
 * The extension-negotiation hook of a handshake. On a server it reads the client's offers and
 * returns the extensions it accepts (each at most once, no two claiming the same RSV bit); on a
 * client it reads the server's answer and returns one extension per element of it — the client
 * handshake fails if an element is left without one (the server accepted what was not offered,
 * RFC 6455 §4.1).
 */
@FunctionalInterface
public interface WebSocketExtensionNegotiator {

    /** Accepts no extension: a server declines every offer, a client refuses any the server names. */
    WebSocketExtensionNegotiator NONE = elements -> List.of();

    /**
     * @param elements the elements of every {@code Sec-WebSocket-Extensions} field, split at top-level
     *        commas and trimmed, in order (an element keeps its {@code ;} parameters)
     * @return the extensions in effect, in the order they apply
     * @throws WebSocketHandshakeException on a client, if the server's answer is unacceptable
     */
    List<WebSocketExtension> negotiate(List<String> elements);

    /**
     * What a client puts in its {@code Sec-WebSocket-Extensions} request field.
     *
     * @return the offer, or null to send none (the default, and what a server-side negotiator returns)
     */
    default String offer() {
        return null;
    }
}
