package io.rill.handler.codec.http.websocketx;

/** A WebSocket opening handshake failed: the peer's request or response breaks RFC 6455 §4. */
public final class WebSocketHandshakeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what was wrong, quoting the offending field */
    public WebSocketHandshakeException(String message) {
        super(message);
    }
}
