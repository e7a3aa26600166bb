package io.rill.handler.codec.http.websocketx;

import io.rill.handler.codec.http.HttpHeaders;

/**
 * The user event both protocol handlers fire once the connection speaks WebSocket; frames follow.
 *
 * @param uri the request target of the upgrade request
 * @param headers on a server the upgrade request's fields, on a client the {@code 101}'s
 * @param subprotocol the agreed subprotocol, null for none
 */
public record WebSocketHandshakeComplete(String uri, HttpHeaders headers, String subprotocol) {
}
