package io.rill.handler.codec.http.websocketx;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A pong (opcode 0xA, RFC 6455 §5.5.3): the answer to a ping, or an unsolicited heartbeat. */
public final class PongWebSocketFrame extends WebSocketFrame {

    /** An empty, final frame. */
    public PongWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A final frame without RSV bits.
     *
     * @param content the payload; owned by this frame from now on
     */
    public PongWebSocketFrame(ByteBuf content) {
        this(true, 0, content);
    }

    /**
     * A frame.
     *
     * @param finalFragment the FIN bit
     * @param rsv the RSV bits (see {@link WebSocketFrame#RSV1})
     * @param content the payload; owned by this frame from now on
     */
    public PongWebSocketFrame(boolean finalFragment, int rsv, ByteBuf content) {
        super(finalFragment, rsv, content);
    }

    @Override
    public int opcode() {
        return 0xA;
    }

    @Override
    public PongWebSocketFrame replace(ByteBuf content) {
        return new PongWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
