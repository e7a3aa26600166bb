package io.rill.handler.codec.http.websocketx;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A ping (opcode 0x9, RFC 6455 §5.5.2): at most 125 bytes of application data, never fragmented; answered by a pong with the same payload. */
public final class PingWebSocketFrame extends WebSocketFrame {

    /** An empty, final frame. */
    public PingWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A final frame without RSV bits.
     *
     * @param content the payload; owned by this frame from now on
     */
    public PingWebSocketFrame(ByteBuf content) {
        this(true, 0, content);
    }

    /**
     * A frame.
     *
     * @param finalFragment the FIN bit
     * @param rsv the RSV bits (see {@link WebSocketFrame#RSV1})
     * @param content the payload; owned by this frame from now on
     */
    public PingWebSocketFrame(boolean finalFragment, int rsv, ByteBuf content) {
        super(finalFragment, rsv, content);
    }

    @Override
    public int opcode() {
        return 0x9;
    }

    @Override
    public PingWebSocketFrame replace(ByteBuf content) {
        return new PingWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
