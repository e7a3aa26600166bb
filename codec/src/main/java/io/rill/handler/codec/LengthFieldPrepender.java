package io.rill.handler.codec;

import java.nio.ByteOrder;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Writes each outbound {@code ByteBuf} behind a length field: the counterpart of
 * {@link LengthFieldBasedFrameDecoder}. The header is a separate small buffer written just
 * before the message, so the message itself is never copied.
 *
 * <pre>
 *   "HELLO" (5 bytes)  ──►  00 05 | "HELLO"          lengthFieldLength 2
 *                      ──►  00 07 | "HELLO"          ... with lengthIncludesLengthFieldLength
 * </pre>
 *
 * A length that does not fit the field fails the write with an {@link EncoderException}.
 */
@ChannelHandler.Sharable
public class LengthFieldPrepender extends MessageToMessageEncoder<ByteBuf> {

    private final ByteOrder byteOrder;
    private final int lengthFieldLength;
    private final boolean lengthIncludesLengthFieldLength;
    private final int lengthAdjustment;

    /**
     * A big-endian field of 1, 2, 3, 4 or 8 bytes holding the message length.
     *
     * @param lengthFieldLength the width of the length field in bytes
     * @throws IllegalArgumentException if the width is not 1, 2, 3, 4 or 8
     */
    public LengthFieldPrepender(int lengthFieldLength) {
        this(ByteOrder.BIG_ENDIAN, lengthFieldLength, 0, false);
    }

    /**
     * @param lengthAdjustment                added to the written length
     * @param lengthIncludesLengthFieldLength the written length counts the field itself
     * @param byteOrder the byte order of the length field
     * @param lengthFieldLength the width of the length field in bytes: 1, 2, 3, 4 or 8
     */
    public LengthFieldPrepender(ByteOrder byteOrder, int lengthFieldLength, int lengthAdjustment,
                                boolean lengthIncludesLengthFieldLength) {
        super(ByteBuf.class);
        if (byteOrder == null) {
            throw new NullPointerException("byteOrder");
        }
        if (lengthFieldLength != 1 && lengthFieldLength != 2 && lengthFieldLength != 3 && lengthFieldLength != 4
                && lengthFieldLength != 8) {
            throw new IllegalArgumentException("lengthFieldLength: " + lengthFieldLength + " (expected: 1, 2, 3, 4 or 8)");
        }
        this.byteOrder = byteOrder;
        this.lengthFieldLength = lengthFieldLength;
        this.lengthAdjustment = lengthAdjustment;
        this.lengthIncludesLengthFieldLength = lengthIncludesLengthFieldLength;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        long length = (long) msg.readableBytes() + lengthAdjustment
                + (lengthIncludesLengthFieldLength ? lengthFieldLength : 0);
        long max = lengthFieldLength == 8 ? Long.MAX_VALUE : (1L << (lengthFieldLength * 8)) - 1;
        if (length < 0 || length > max) {
            throw new EncoderException("length " + length + " does not fit a " + lengthFieldLength + "-byte length field");
        }
        boolean le = byteOrder == ByteOrder.LITTLE_ENDIAN;
        ByteBuf header = ctx.alloc().buffer(lengthFieldLength);
        switch (lengthFieldLength) {
            case 1 -> header.writeByte((int) length);
            case 2 -> {
                if (le) {
                    header.writeShortLE((int) length);
                } else {
                    header.writeShort((int) length);
                }
            }
            case 3 -> {
                if (le) {
                    header.writeMediumLE((int) length);
                } else {
                    header.writeMedium((int) length);
                }
            }
            case 4 -> {
                if (le) {
                    header.writeIntLE((int) length);
                } else {
                    header.writeInt((int) length);
                }
            }
            default -> {
                if (le) {
                    header.writeLongLE(length);
                } else {
                    header.writeLong(length);
                }
            }
        }
        out.add(header);
        out.add(msg.retain());
    }
}
