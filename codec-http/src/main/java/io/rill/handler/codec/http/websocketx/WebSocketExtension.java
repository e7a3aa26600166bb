package io.rill.handler.codec.http.websocketx;

import io.rill.channel.ChannelHandler;

/**
 * One extension a handshake agreed on (RFC 6455 §9), e.g. permessage-deflate (RFC 7692). It
 * claims RSV bits, which the frame decoder then accepts on data frames, and brings two handlers
 * that transform whole {@link WebSocketFrame}s: the decoder sits right after the
 * {@link WebSocketFrameDecoder} (inbound frames pass through it before the application sees
 * them), the encoder right before the {@link WebSocketFrameEncoder} in write order. Extensions
 * negotiated together are applied in the order they were listed in the response header.
 */
public interface WebSocketExtension {

    /** @return the RSV bits this extension gives a meaning ({@link WebSocketFrame#RSV1} ...) */
    int rsv();

    /**
     * The element of the {@code Sec-WebSocket-Extensions} response field that accepts this
     * extension, with its parameters, e.g. {@code permessage-deflate; server_no_context_takeover}.
     *
     * @return the extension's name and parameters
     */
    String responseElement();

    /** @return a new handler that turns received frames back into plain ones (inflates, ...) */
    ChannelHandler newDecoder();

    /** @return a new handler that transforms frames about to be sent (deflates, ...) and sets their RSV bits */
    ChannelHandler newEncoder();
}
