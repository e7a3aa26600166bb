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
 * after the header, not copied. An unmasked payload the encoder owns alone (a reference count of 1,
 * writable) with room before its reader index takes its header there and goes out as the one
 * buffer: bytes before the reader index are already read, and ownership passed with the write.
 * The decoder leaves that room before every payload it unmasks, so a server that echoes or
 * forwards what it received allocates nothing and copies nothing to send it. The encoder writes
 * what it is given: extensions that transform frames (compression) sit after it in the pipeline,
 * toward the application, and set the RSV bits themselves.
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
        int headerLength = headerLength(length, maskFrames);
        if (!maskFrames && content.readerIndex() >= headerLength && content.refCnt() == 1 && !content.isReadOnly()) {
            int start = content.readerIndex() - headerLength;
            setHeader(content, start, frame, length, false);
            out.add(content.retain().readerIndex(start)); // the superclass releases the frame
            return;
        }
        boolean copy = maskFrames || length <= COPY_THRESHOLD;
        ByteBuf buf = ctx.alloc().buffer(headerLength + (copy ? length : 0));
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
        int headerLength = headerLength(length, mask);
        buf.ensureWritable(headerLength);
        setHeader(buf, buf.writerIndex(), frame, length, mask);
        buf.writerIndex(buf.writerIndex() + headerLength);
        if (mask) {
            buf.setInt(buf.writerIndex() - 4, maskKey);
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

    /** Bytes of the header of a frame of {@code length} payload bytes, the masking key included. */
    private static int headerLength(int length, boolean mask) {
        return (length <= 125 ? 2 : length <= 0xFFFF ? 4 : 10) + (mask ? 4 : 0);
    }

    /** Sets the header at {@code index}, all but the masking key's bytes; checks a control frame's limits. */
    private static void setHeader(ByteBuf buf, int index, WebSocketFrame frame, int length, boolean mask) {
        if (frame.isControl() && (length > 125 || !frame.isFinalFragment())) {
            throw new IllegalArgumentException("a control frame must be final and carry at most 125 bytes, not "
                    + length + " (RFC 6455 §5.5)");
        }
        buf.setByte(index, (frame.isFinalFragment() ? 0x80 : 0) | frame.rsv() << 4 | frame.opcode());
        int maskBit = mask ? 0x80 : 0;
        if (length <= 125) {
            buf.setByte(index + 1, maskBit | length);
        } else if (length <= 0xFFFF) {
            buf.setByte(index + 1, maskBit | 126);
            buf.setShort(index + 2, length);
        } else {
            buf.setByte(index + 1, maskBit | 127);
            buf.setLong(index + 2, length);
        }
    }
}
