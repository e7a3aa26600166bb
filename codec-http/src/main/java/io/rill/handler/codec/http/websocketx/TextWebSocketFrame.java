package io.rill.handler.codec.http.websocketx;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A text data frame (opcode 0x1), or the first frame of a fragmented text message; the whole message is UTF-8. */
public final class TextWebSocketFrame extends WebSocketFrame {

    /** An empty, final frame. */
    public TextWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A final frame without RSV bits.
     *
     * @param content the payload; owned by this frame from now on
     */
    public TextWebSocketFrame(ByteBuf content) {
        this(true, 0, content);
    }

    /**
     * A frame.
     *
     * @param finalFragment the FIN bit
     * @param rsv the RSV bits (see {@link WebSocketFrame#RSV1})
     * @param content the payload; owned by this frame from now on
     */
    public TextWebSocketFrame(boolean finalFragment, int rsv, ByteBuf content) {
        super(finalFragment, rsv, content);
    }

    /**
     * A final frame holding {@code text} in UTF-8.
     *
     * @param text the text
     */
    public TextWebSocketFrame(String text) {
        this(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** @return the payload decoded as UTF-8 (of this frame only, for a fragmented message) */
    public String text() {
        return content().toString(StandardCharsets.UTF_8);
    }

    @Override
    public int opcode() {
        return 0x1;
    }

    @Override
    public TextWebSocketFrame replace(ByteBuf content) {
        return new TextWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
