package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Writes each outbound {@code ByteBuf} behind its length as a base-128 varint: the counterpart
 * of {@link ProtobufVarint32FrameDecoder}. The 1–5 byte prefix is a separate buffer, so the
 * message is not copied.
 */
@ChannelHandler.Sharable
public class ProtobufVarint32LengthFieldPrepender extends MessageToMessageEncoder<ByteBuf> {

    /** Creates the prepender; one instance may serve every channel. */
    public ProtobufVarint32LengthFieldPrepender() {
        super(ByteBuf.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        int length = msg.readableBytes();
        ByteBuf header = ctx.alloc().buffer(computeRawVarint32Size(length));
        writeRawVarint32(header, length);
        out.add(header);
        out.add(msg.retain());
    }

    /** Appends {@code value} as a varint: 7 bits per byte, least significant first, high bit = more. */
    static void writeRawVarint32(ByteBuf out, int value) {
        while ((value & ~0x7f) != 0) {
            out.writeByte((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    /** The bytes {@link #writeRawVarint32} needs for {@code value}: 1 to 5. */
    static int computeRawVarint32Size(int value) {
        int bits = 32 - Integer.numberOfLeadingZeros(value | 1);
        return (bits + 6) / 7;
    }
}
