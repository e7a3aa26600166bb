package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteProcessor;
import io.rill.channel.ChannelHandlerContext;

/**
 * Splits the byte stream into lines ended by {@code \n} or {@code \r\n}. Lines are retained
 * slices of the received bytes, without the line ending unless {@code stripDelimiter} is off.
 *
 * <p>The search for {@code \n} ({@code forEachByte}) resumes where the previous read left off,
 * so a long line arriving byte by byte is scanned once, not once per byte.
 *
 * <p><b>Bad input.</b> A line longer than {@code maxLength} (line ending excluded) is skipped
 * without being buffered, up to and including its line ending, and reported as a
 * {@link TooLongFrameException} through {@code exceptionCaught}: when the limit is passed
 * (fail-fast) or when its end arrives (the default). The lines after it decode normally.
 */
public class LineBasedFrameDecoder extends ByteToMessageDecoder {

    private final int maxLength;
    private final boolean failFast;
    private final boolean stripDelimiter;
    /** Readable bytes already searched for {@code \n} (relative to the reader index, so compaction cannot break it). */
    private int scanned;
    /** True while skipping an over-long line. */
    private boolean discarding;
    /** Bytes of the over-long line skipped so far. */
    private long discardedBytes;

    /**
     * Strips line endings and reports an over-long line once its end arrives.
     *
     * @param maxLength the longest line accepted, line ending excluded
     * @throws IllegalArgumentException if {@code maxLength} is not positive
     */
    public LineBasedFrameDecoder(int maxLength) {
        this(maxLength, true, false);
    }

    /**
     * Splits at line endings ({@code \n} or {@code \r\n}).
     *
     * @param maxLength      the longest line accepted, line ending excluded
     * @param stripDelimiter true to drop the line ending from each frame, false to keep it
     * @param failFast       report an over-long line as soon as the limit is passed, not when its end arrives
     * @throws IllegalArgumentException if {@code maxLength} is not positive
     */
    public LineBasedFrameDecoder(int maxLength, boolean stripDelimiter, boolean failFast) {
        if (maxLength <= 0) {
            throw new IllegalArgumentException("maxLength: " + maxLength + " (expected: > 0)");
        }
        this.maxLength = maxLength;
        this.failFast = failFast;
        this.stripDelimiter = stripDelimiter;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int eol = findLineFeed(in);
        if (discarding) {
            skipLongLine(ctx, in, eol);
            return;
        }
        if (eol < 0) {
            int length = in.readableBytes();
            // One byte over is fine if it is the CR of a CRLF still on its way.
            if (length > maxLength && !(length == maxLength + 1 && in.getByte(in.writerIndex() - 1) == '\r')) {
                discarding = true;
                discardedBytes = length;
                in.skipBytes(length);
                scanned = 0;
                if (failFast) {
                    fail(ctx, "over " + maxLength);
                }
            }
            return;
        }
        int start = in.readerIndex();
        int delimiterLength = eol > start && in.getByte(eol - 1) == '\r' ? 2 : 1;
        int lineLength = eol + 1 - delimiterLength - start;
        if (lineLength > maxLength) {
            in.readerIndex(eol + 1);
            fail(ctx, String.valueOf(lineLength));
            return;
        }
        if (stripDelimiter) {
            out.add(in.readRetainedSlice(lineLength));
            in.skipBytes(delimiterLength);
        } else {
            out.add(in.readRetainedSlice(lineLength + delimiterLength));
        }
    }

    /** The index of the next {@code \n}, or -1; scans only bytes not searched before. */
    private int findLineFeed(ByteBuf in) {
        int from = in.readerIndex() + scanned;
        int eol = in.forEachByte(from, in.writerIndex() - from, ByteProcessor.FIND_LF);
        scanned = eol < 0 ? in.readableBytes() : 0;
        return eol;
    }

    private void skipLongLine(ChannelHandlerContext ctx, ByteBuf in, int eol) {
        if (eol < 0) {
            discardedBytes += in.readableBytes();
            in.skipBytes(in.readableBytes());
            scanned = 0;
            return;
        }
        long length = discardedBytes + eol - in.readerIndex();
        in.readerIndex(eol + 1);
        discarding = false;
        discardedBytes = 0;
        if (!failFast) {
            fail(ctx, String.valueOf(length));
        }
    }

    private void fail(ChannelHandlerContext ctx, String length) {
        ctx.fireExceptionCaught(new TooLongFrameException("line length " + length + " exceeds the maximum of "
                + maxLength + "; discarded"));
    }
}
