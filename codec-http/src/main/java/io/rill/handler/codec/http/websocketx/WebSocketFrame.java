package io.rill.handler.codec.http.websocketx;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;

/**
 * One WebSocket frame (RFC 6455 §5.2): an opcode (the subclass), the FIN bit, the three RSV bits
 * and the unmasked payload, held as a {@link ByteBufHolder}: whoever receives a frame owns it and
 * must release it; a frame written to a channel belongs to the pipeline from then on.
 *
 * <p>The RSV bits are {@code 0} unless a negotiated extension gives them a meaning (RFC 6455
 * §5.2, e.g. RSV1 for permessage-deflate, RFC 7692 §6); the decoder refuses them otherwise.
 */
public abstract class WebSocketFrame implements ByteBufHolder {

    /** RSV1, the bit an extension such as permessage-deflate claims; as kept in {@link #rsv()}. */
    public static final int RSV1 = 0x4;
    /** RSV2, as kept in {@link #rsv()}. */
    public static final int RSV2 = 0x2;
    /** RSV3, as kept in {@link #rsv()}. */
    public static final int RSV3 = 0x1;

    private final boolean finalFragment;
    /** The RSV bits in the low three bits: RSV1 = 4, RSV2 = 2, RSV3 = 1. */
    private final int rsv;
    private final ByteBuf content;

    /**
     * A frame.
     *
     * @param finalFragment the FIN bit: the last frame of its message
     * @param rsv the RSV bits, a combination of {@link #RSV1}, {@link #RSV2} and {@link #RSV3}
     * @param content the unmasked payload; owned by this frame from now on
     * @throws IllegalArgumentException if {@code rsv} has bits outside the low three
     */
    protected WebSocketFrame(boolean finalFragment, int rsv, ByteBuf content) {
        if ((rsv & ~7) != 0) {
            throw new IllegalArgumentException("rsv: " + rsv + " (expected 0..7)");
        }
        if (content == null) {
            throw new NullPointerException("content");
        }
        this.finalFragment = finalFragment;
        this.rsv = rsv;
        this.content = content;
    }

    /**
     * The opcode of this kind of frame (RFC 6455 §5.2).
     *
     * @return 0x0 continuation, 0x1 text, 0x2 binary, 0x8 close, 0x9 ping, 0xA pong
     */
    public abstract int opcode();

    /**
     * The same kind of frame, same FIN and RSV, around other content.
     *
     * @param content the new payload; ownership passes to the result
     * @return a new frame
     */
    @Override
    public abstract WebSocketFrame replace(ByteBuf content);

    /** @return whether this frame is the last of its message (FIN) */
    public boolean isFinalFragment() {
        return finalFragment;
    }

    /** @return the RSV bits, RSV1 = 4, RSV2 = 2, RSV3 = 1 */
    public int rsv() {
        return rsv;
    }

    /** @return whether this is a close, ping or pong frame (opcode 0x8 and above) */
    public boolean isControl() {
        return opcode() >= 0x8;
    }

    /** @return the unmasked payload; it belongs to this frame, so release the frame, not it */
    @Override
    public ByteBuf content() {
        return content;
    }

    @Override
    public WebSocketFrame copy() {
        return replace(content.copy());
    }

    @Override
    public WebSocketFrame duplicate() {
        return replace(content.duplicate());
    }

    /** @return a frame of the same kind over a retained duplicate of the payload */
    @Override
    public WebSocketFrame retainedDuplicate() {
        return replace(content.retainedDuplicate());
    }

    @Override
    public WebSocketFrame retain() {
        content.retain();
        return this;
    }

    @Override
    public WebSocketFrame retain(int increment) {
        content.retain(increment);
        return this;
    }

    @Override
    public WebSocketFrame touch() {
        content.touch();
        return this;
    }

    @Override
    public WebSocketFrame touch(Object hint) {
        content.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(fin: " + finalFragment + ", rsv: " + rsv + ", payload: "
                + content.readableBytes() + " bytes)";
    }
}
