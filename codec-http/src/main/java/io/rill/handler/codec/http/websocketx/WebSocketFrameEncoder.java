package io.rill.handler.codec.http.websocketx;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;

/**
 * Turns {@link WebSocketFrame}s into bytes (RFC 6455 §5.2). A client's encoder masks every frame
 * with a fresh key from {@link java.security.SecureRandom} (§5.3: the key must be unpredictable, or
 * a page's script could choose the bytes a proxy sees); a server's never masks.
 *
 * <pre>
 *  byte 0: FIN | RSV1 RSV2 RSV3 | opcode(4)
 *  byte 1: MASK | length(7)        126 → 16-bit length follows, 127 → 63-bit length follows
 *  [2 or 8 bytes extended length, network order] [4 bytes masking key if MASK]  payload
 * </pre>
 *
 * <p>An unmasked payload larger than {@value #COPY_THRESHOLD} bytes goes out as its own buffer
 * after the header, not copied. The encoder writes what it is given: extensions that transform
 * frames (compression) sit after it in the pipeline, toward the application, and set the RSV
 * bits themselves.
 */
public final class WebSocketFrameEncoder extends MessageToMessageEncoder<WebSocketFrame> {

    /** Payloads up to this size are copied behind the header: one buffer, one write. */
    static final int COPY_THRESHOLD = 1024;

    private final boolean maskFrames;

    /**
     * @param maskFrames true for a client (every frame masked), false for a server
     */
    public WebSocketFrameEncoder(boolean maskFrames) {
        super(WebSocketFrame.class);
        this.maskFrames = maskFrames;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, WebSocketFrame frame, List<Object> out) {
        ByteBuf content = frame.content();
        int length = content.readableBytes();
        boolean copy = maskFrames || length <= COPY_THRESHOLD;
        ByteBuf buf = ctx.alloc().buffer(14 + (copy ? length : 0));
        try {
            writeFrame(buf, frame, maskFrames ? WebSocketMasking.newMaskKey() : 0, maskFrames, copy);
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
        out.add(buf);
        if (!copy) {
            out.add(content.retain()); // the superclass releases the frame: keep the payload alive
        }
    }

    /**
     * Encodes one whole frame into a fresh buffer; the frame is not released.
     *
     * @param alloc where the buffer comes from
     * @param frame the frame
     * @param mask whether to mask it (a client's frame)
     * @return the bytes, owned by the caller
     */
    static ByteBuf encodeWhole(ByteBufAllocator alloc, WebSocketFrame frame, boolean mask) {
        ByteBuf buf = alloc.buffer(14 + frame.content().readableBytes());
        writeFrame(buf, frame, mask ? WebSocketMasking.newMaskKey() : 0, mask, true);
        return buf;
    }

    /** The header, and the payload too when {@code withPayload}; masked with {@code maskKey} when {@code mask}. */
    static void writeFrame(ByteBuf buf, WebSocketFrame frame, int maskKey, boolean mask, boolean withPayload) {
        ByteBuf content = frame.content();
        int length = content.readableBytes();
        if (frame.isControl() && (length > 125 || !frame.isFinalFragment())) {
            throw new IllegalArgumentException("a control frame must be final and carry at most 125 bytes, not "
                    + length + " (RFC 6455 §5.5)");
        }
        buf.writeByte((frame.isFinalFragment() ? 0x80 : 0) | frame.rsv() << 4 | frame.opcode());
        int maskBit = mask ? 0x80 : 0;
        if (length <= 125) {
            buf.writeByte(maskBit | length);
        } else if (length <= 0xFFFF) {
            buf.writeByte(maskBit | 126);
            buf.writeShort(length);
        } else {
            buf.writeByte(maskBit | 127);
            buf.writeLong(length);
        }
        if (mask) {
            buf.writeInt(maskKey);
        }
        if (!withPayload) {
            return;
        }
        if (mask) {
            WebSocketMasking.copyMasked(content, content.readerIndex(), length, maskKey, buf);
        } else {
            buf.writeBytes(content, content.readerIndex(), length);
        }
    }
}
