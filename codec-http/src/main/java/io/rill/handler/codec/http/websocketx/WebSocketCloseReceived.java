package io.rill.handler.codec.http.websocketx;

/**
 * The user event fired when the peer's close frame arrives (RFC 6455 §5.5.1); the connection closes
 * right after, once the answering close frame is written.
 *
 * @param status the peer's status code, {@link CloseWebSocketFrame#NO_STATUS} if it sent none
 * @param reason the peer's reason, empty if none
 */
public record WebSocketCloseReceived(int status, String reason) {
}
