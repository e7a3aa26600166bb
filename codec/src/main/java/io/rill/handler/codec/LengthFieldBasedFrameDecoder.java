package io.rill.handler.codec;

import java.nio.ByteOrder;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Splits the byte stream into frames whose length is written in a header field.
 *
 * <pre>
 *   |&lt;- lengthFieldOffset -&gt;|&lt;- lengthFieldLength -&gt;|&lt;--------- rest of the frame ---------&gt;|
 *   +---------------------+---------------------+---------------------------------------+
 *   |  header bytes       |  length L           |  L + lengthAdjustment bytes            |
 *   +---------------------+---------------------+---------------------------------------+
 *   frame = lengthFieldOffset + lengthFieldLength + L + lengthAdjustment bytes;
 *   the first initialBytesToStrip of them are dropped before the frame goes downstream.
 * </pre>
 *
 * Examples: a 2-byte length before the body, body only passed on:
 * {@code (max, 0, 2, 0, 2)}. A length that counts the whole frame including its own 4 bytes,
 * header kept: {@code (max, 0, 4, -4, 0)}. A 1-byte type, then a 2-byte length of the body:
 * {@code (max, 1, 2, 0, 0)}.
 *
 * <p><b>Bad input.</b> A frame longer than {@code maxFrameLength} is skipped without being
 * buffered and reported as a {@link TooLongFrameException} through {@code exceptionCaught},
 * as soon as its length is read (fail-fast, the default) or after it was skipped; the frames
 * after it decode normally. A length that is negative, overflows, or is shorter than the header
 * throws {@link CorruptedFrameException} quoting the value; the stream cannot be trusted after
 * that, so every later byte is dropped.
 *
 * <p>Frames are retained slices of the received bytes (no copy); the receiver releases them.
 */
public class LengthFieldBasedFrameDecoder extends ByteToMessageDecoder {

    private final ByteOrder byteOrder;
    private final int maxFrameLength;
    private final int lengthFieldOffset;
    private final int lengthFieldLength;
    /** lengthFieldOffset + lengthFieldLength: the header bytes needed to know a frame's length. */
    private final int lengthFieldEndOffset;
    private final int lengthAdjustment;
    private final int initialBytesToStrip;
    private final BadFrames badFrames;

    /**
     * Big-endian length, no adjustment, nothing stripped, fail-fast.
     *
     * @param maxFrameLength    longest frame accepted, header included
     * @param lengthFieldOffset where the length field starts
     * @param lengthFieldLength 1, 2, 3, 4 or 8 bytes
     * @throws IllegalArgumentException if a value is out of range
     */
    public LengthFieldBasedFrameDecoder(int maxFrameLength, int lengthFieldOffset, int lengthFieldLength) {
        this(maxFrameLength, lengthFieldOffset, lengthFieldLength, 0, 0);
    }

    /**
     * Big-endian length, fail-fast.
     *
     * @param maxFrameLength      longest frame accepted, header included, before stripping
     * @param lengthFieldOffset   where the length field starts
     * @param lengthFieldLength   1, 2, 3, 4 or 8 bytes
     * @param lengthAdjustment    added to the length field's value to get the bytes after the field
     * @param initialBytesToStrip bytes dropped from the start of each frame
     * @throws IllegalArgumentException if a value is out of range
     */
    public LengthFieldBasedFrameDecoder(int maxFrameLength, int lengthFieldOffset, int lengthFieldLength,
                                        int lengthAdjustment, int initialBytesToStrip) {
        this(ByteOrder.BIG_ENDIAN, maxFrameLength, lengthFieldOffset, lengthFieldLength, lengthAdjustment,
                initialBytesToStrip, true);
    }

    /**
     * @param byteOrder           the byte order of the length field
     * @param maxFrameLength      longest frame accepted, header included, before stripping
     * @param lengthFieldOffset   where the length field starts
     * @param lengthFieldLength   1, 2, 3, 4 or 8 bytes (unsigned except 8, which must not be negative)
     * @param lengthAdjustment    added to the length field's value to get the bytes after the field
     * @param initialBytesToStrip bytes dropped from the start of each frame
     * @param failFast            report an oversized frame when its length is read, not after skipping it
     */
    public LengthFieldBasedFrameDecoder(ByteOrder byteOrder, int maxFrameLength, int lengthFieldOffset,
                                        int lengthFieldLength, int lengthAdjustment, int initialBytesToStrip,
                                        boolean failFast) {
        if (byteOrder == null) {
            throw new NullPointerException("byteOrder");
        }
        if (maxFrameLength <= 0 || lengthFieldOffset < 0 || initialBytesToStrip < 0) {
            throw new IllegalArgumentException("maxFrameLength " + maxFrameLength + ", lengthFieldOffset "
                    + lengthFieldOffset + ", initialBytesToStrip " + initialBytesToStrip
                    + " (expected: maxFrameLength > 0, the others >= 0)");
        }
        if (lengthFieldLength != 1 && lengthFieldLength != 2 && lengthFieldLength != 3 && lengthFieldLength != 4
                && lengthFieldLength != 8) {
            throw new IllegalArgumentException("lengthFieldLength: " + lengthFieldLength + " (expected: 1, 2, 3, 4 or 8)");
        }
        if (lengthFieldOffset > maxFrameLength - lengthFieldLength) {
            throw new IllegalArgumentException("maxFrameLength " + maxFrameLength + " leaves no room for a length field"
                    + " of " + lengthFieldLength + " bytes at offset " + lengthFieldOffset);
        }
        this.byteOrder = byteOrder;
        this.maxFrameLength = maxFrameLength;
        this.lengthFieldOffset = lengthFieldOffset;
        this.lengthFieldLength = lengthFieldLength;
        this.lengthFieldEndOffset = lengthFieldOffset + lengthFieldLength;
        this.lengthAdjustment = lengthAdjustment;
        this.initialBytesToStrip = initialBytesToStrip;
        this.badFrames = new BadFrames(maxFrameLength, failFast);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (badFrames.skip(ctx, in)) {
            return;
        }
        if (in.readableBytes() < lengthFieldEndOffset) {
            return;
        }
        long frameLength = frameLength(in);
        if (frameLength > maxFrameLength) {
            badFrames.skipOversized(ctx, in, frameLength);
            return;
        }
        int length = (int) frameLength;
        if (in.readableBytes() < length) {
            return;
        }
        if (initialBytesToStrip > length) {
            throw badFrames.corrupt(in, "frame length " + length + " is shorter than initialBytesToStrip " + initialBytesToStrip);
        }
        in.skipBytes(initialBytesToStrip);
        out.add(in.readRetainedSlice(length - initialBytesToStrip));
    }

    /** The whole frame's length from its header; throws on a value no valid frame can have. */
    private long frameLength(ByteBuf in) {
        long raw = getUnadjustedFrameLength(in, in.readerIndex() + lengthFieldOffset, lengthFieldLength, byteOrder);
        if (raw < 0) {
            throw badFrames.corrupt(in, "negative length field: " + raw);
        }
        long frameLength;
        try {
            frameLength = Math.addExact(raw, (long) lengthAdjustment + lengthFieldEndOffset);
        } catch (ArithmeticException e) {
            throw badFrames.corrupt(in, "length field " + raw + " overflows when adjusted by " + lengthAdjustment);
        }
        if (frameLength < lengthFieldEndOffset) {
            throw badFrames.corrupt(in, "length field " + raw + " adjusted by " + lengthAdjustment + " gives a frame of "
                    + frameLength + " bytes, shorter than its header of " + lengthFieldEndOffset);
        }
        return frameLength;
    }

    /**
     * Reads the raw length field. Override to decode a length in another encoding (e.g. ASCII
     * digits); the rest of the framing stays as it is.
     *
     * @param buf    the cumulation; only read at absolute indexes, never consumed or released
     * @param offset the index of the length field in {@code buf}
     * @param length the width of the length field in bytes
     * @param order  the byte order of the length field
     * @return the field's value, before {@code lengthAdjustment}; a negative value is rejected as corrupt
     */
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
        boolean le = order == ByteOrder.LITTLE_ENDIAN;
        switch (length) {
            case 1:
                return buf.getUnsignedByte(offset);
            case 2:
                return le ? buf.getUnsignedShortLE(offset) : buf.getUnsignedShort(offset);
            case 3:
                return le ? buf.getUnsignedMediumLE(offset) : buf.getUnsignedMedium(offset);
            case 4:
                return le ? buf.getUnsignedIntLE(offset) : buf.getUnsignedInt(offset);
            case 8:
                return le ? buf.getLongLE(offset) : buf.getLong(offset);
            default:
                throw new DecoderException("unsupported lengthFieldLength: " + length + " (expected: 1, 2, 3, 4 or 8)");
        }
    }
}
