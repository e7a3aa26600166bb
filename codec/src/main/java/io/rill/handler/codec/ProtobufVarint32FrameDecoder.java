package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.ChannelHandlerContext;

/**
 * Splits the byte stream into frames preceded by their length as a base-128 varint, the way
 * protobuf streams delimit messages ({@code writeDelimitedTo}):
 * <pre>
 *   ac 02 | 300 bytes        (0xac 0x02 = 0b0000010_0101100 = 300; high bit = more bytes follow)
 * </pre>
 * Frames are retained slices without the length prefix.
 *
 * <p><b>Bad input.</b> A varint longer than 5 bytes or wider than 32 bits, or a negative
 * length, throws {@link CorruptedFrameException} quoting the bytes; every later byte is
 * dropped. A frame longer than {@code maxFrameLength} is skipped without being buffered and
 * reported as a {@link TooLongFrameException} through {@code exceptionCaught} (at once); the
 * frames after it decode normally.
 */
public class ProtobufVarint32FrameDecoder extends ByteToMessageDecoder {

    /** Default bound: 16 MiB, far above a sane protobuf message, far below a memory problem. */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;
    /** {@link #readLength}: the varint has not fully arrived. */
    private static final long INCOMPLETE = -1;

    private final BadFrames badFrames;
    private final int maxFrameLength;
    /** Bytes of the varint {@link #readLength} just parsed. */
    private int headerLength;

    /** Frames up to {@link #DEFAULT_MAX_FRAME_LENGTH}. */
    public ProtobufVarint32FrameDecoder() {
        this(DEFAULT_MAX_FRAME_LENGTH);
    }

    /**
     * Frames up to {@code maxFrameLength} bytes; a longer one is skipped and reported as a {@link
     * TooLongFrameException}.
     *
     * @param maxFrameLength the longest frame accepted, varint prefix excluded; positive
     * @throws IllegalArgumentException if {@code maxFrameLength} is not positive
     */
    public ProtobufVarint32FrameDecoder(int maxFrameLength) {
        if (maxFrameLength <= 0) {
            throw new IllegalArgumentException("maxFrameLength: " + maxFrameLength + " (expected: > 0)");
        }
        this.maxFrameLength = maxFrameLength;
        this.badFrames = new BadFrames(maxFrameLength, true);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (badFrames.skip(ctx, in)) {
            return;
        }
        long length = readLength(in);
        if (length == INCOMPLETE) {
            return;
        }
        if (length > maxFrameLength) {
            in.skipBytes(headerLength);
            badFrames.skipOversized(ctx, in, length);
            return;
        }
        if (in.readableBytes() < headerLength + length) {
            return;
        }
        in.skipBytes(headerLength);
        out.add(in.readRetainedSlice((int) length));
    }

    /** The varint at the reader index (not consumed), or INCOMPLETE; sets {@link #headerLength}. */
    private long readLength(ByteBuf in) {
        int start = in.readerIndex();
        int available = Math.min(5, in.readableBytes());
        int value = 0;
        for (int i = 0; i < available; i++) {
            byte b = in.getByte(start + i);
            if (i == 4 && (b & 0xf0) != 0) {
                throw badFrames.corrupt(in, "malformed varint32: " + hex(in, start, 5) + " (more than 32 bits)");
            }
            value |= (b & 0x7f) << (7 * i);
            if (b >= 0) {
                if (value < 0) {
                    throw badFrames.corrupt(in, "negative frame length " + value + " in varint " + hex(in, start, i + 1));
                }
                headerLength = i + 1;
                return value;
            }
        }
        return INCOMPLETE;
    }

    private static String hex(ByteBuf in, int start, int length) {
        return ByteBufUtil.hexDump(in, start, length);
    }
}
