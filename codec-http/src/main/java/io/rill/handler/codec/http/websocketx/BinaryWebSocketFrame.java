package io.rill.handler.codec.http.websocketx;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A binary data frame (opcode 0x2), or the first frame of a fragmented binary message. */
public final class BinaryWebSocketFrame extends WebSocketFrame {

    /** An empty, final frame. */
    public BinaryWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A final frame without RSV bits.
     *
     * @param content the payload; owned by this frame from now on
     */
    public BinaryWebSocketFrame(ByteBuf content) {
        this(true, 0, content);
    }

    /**
     * A frame.
     *
     * @param finalFragment the FIN bit
     * @param rsv the RSV bits (see {@link WebSocketFrame#RSV1})
     * @param content the payload; owned by this frame from now on
     */
    public BinaryWebSocketFrame(boolean finalFragment, int rsv, ByteBuf content) {
        super(finalFragment, rsv, content);
    }

    @Override
    public int opcode() {
        return 0x2;
    }

    @Override
    public BinaryWebSocketFrame replace(ByteBuf content) {
        return new BinaryWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
