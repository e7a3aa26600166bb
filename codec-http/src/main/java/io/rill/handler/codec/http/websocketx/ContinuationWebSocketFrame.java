package io.rill.handler.codec.http.websocketx;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A continuation frame (opcode 0x0): the second and later frames of a fragmented message. */
public final class ContinuationWebSocketFrame extends WebSocketFrame {

    /** An empty, final frame. */
    public ContinuationWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A final frame without RSV bits.
     *
     * @param content the payload; owned by this frame from now on
     */
    public ContinuationWebSocketFrame(ByteBuf content) {
        this(true, 0, content);
    }

    /**
     * A frame.
     *
     * @param finalFragment the FIN bit
     * @param rsv the RSV bits (see {@link WebSocketFrame#RSV1})
     * @param content the payload; owned by this frame from now on
     */
    public ContinuationWebSocketFrame(boolean finalFragment, int rsv, ByteBuf content) {
        super(finalFragment, rsv, content);
    }

    @Override
    public int opcode() {
        return 0x0;
    }

    @Override
    public ContinuationWebSocketFrame replace(ByteBuf content) {
        return new ContinuationWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
