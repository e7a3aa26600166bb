package io.rill.handler.codec;

import java.util.Arrays;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Splits the byte stream at any of a set of delimiters; when several match, the one that ends
 * the shortest frame wins. Frames are retained slices, without the delimiter unless
 * {@code stripDelimiter} is off.
 *
 * <pre>
 *   delimiters {"\0"}:   "abc\0de\0"  ──►  "abc", "de"
 * </pre>
 *
 * Given exactly {@link Delimiters#lineDelimiter()}, it delegates to the faster
 * {@link LineBasedFrameDecoder}.
 *
 * <p><b>Bad input.</b> A frame longer than {@code maxFrameLength} is skipped, up to and
 * including its delimiter, without being buffered, and reported as a
 * {@link TooLongFrameException} through {@code exceptionCaught}: when the limit is passed
 * (fail-fast, the default) or when its delimiter arrives. Frames after it decode normally.
 */
public class DelimiterBasedFrameDecoder extends ByteToMessageDecoder {

    private final byte[][] delimiters;
    private final int maxFrameLength;
    private final boolean stripDelimiter;
    private final boolean failFast;
    /** Bytes of a possibly split delimiter kept back while discarding: the longest delimiter minus one. */
    private final int keepBack;
    /** Non-null when the delimiters are exactly the line endings. */
    private final LineBasedFrameDecoder lineDecoder;
    private boolean discarding;
    /** Bytes of the over-long frame skipped so far. */
    private long tooLongFrameLength;

    /**
     * Strips delimiters, fail-fast.
     *
     * @param maxFrameLength longest frame accepted, delimiter excluded
     * @param delimiters     the delimiters; at least one, none empty
     * @throws IllegalArgumentException if {@code maxFrameLength} is not positive or a delimiter is missing or
     *                                  empty
     */
    public DelimiterBasedFrameDecoder(int maxFrameLength, byte[]... delimiters) {
        this(maxFrameLength, true, true, delimiters);
    }

    /**
     * Splits at {@code delimiters}, with the choices of keeping the delimiter and when to report an over-long
     * frame.
     *
     * @param maxFrameLength longest frame accepted, delimiter excluded
     * @param stripDelimiter true to drop the delimiter from each frame, false to keep it at the end
     * @param failFast       report an over-long frame as soon as the limit is passed, not when its delimiter
     *                 arrives
     * @param delimiters     the delimiters; at least one, none empty (they are copied)
     * @throws IllegalArgumentException if {@code maxFrameLength} is not positive or a delimiter is missing or
     *                                  empty
     */
    public DelimiterBasedFrameDecoder(int maxFrameLength, boolean stripDelimiter, boolean failFast,
                                      byte[]... delimiters) {
        if (maxFrameLength <= 0) {
            throw new IllegalArgumentException("maxFrameLength: " + maxFrameLength + " (expected: > 0)");
        }
        if (delimiters == null || delimiters.length == 0) {
            throw new IllegalArgumentException("no delimiter given");
        }
        this.delimiters = new byte[delimiters.length][];
        int longest = 0;
        for (int i = 0; i < delimiters.length; i++) {
            if (delimiters[i] == null || delimiters[i].length == 0) {
                throw new IllegalArgumentException("empty delimiter at index " + i);
            }
            this.delimiters[i] = delimiters[i].clone();
            longest = Math.max(longest, delimiters[i].length);
        }
        this.maxFrameLength = maxFrameLength;
        this.stripDelimiter = stripDelimiter;
        this.failFast = failFast;
        this.keepBack = longest - 1;
        this.lineDecoder = isLineDelimiter(this.delimiters) && getClass() == DelimiterBasedFrameDecoder.class
                ? new LineBasedFrameDecoder(maxFrameLength, stripDelimiter, failFast) : null;
    }

    private static boolean isLineDelimiter(byte[][] delimiters) {
        byte[][] lines = Delimiters.lineDelimiter();
        return delimiters.length == 2 && (Arrays.equals(delimiters[0], lines[0]) && Arrays.equals(delimiters[1], lines[1])
                || Arrays.equals(delimiters[0], lines[1]) && Arrays.equals(delimiters[1], lines[0]));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (lineDecoder != null) {
            lineDecoder.decode(ctx, in, out);
            return;
        }
        int frameLength = Integer.MAX_VALUE;
        byte[] delimiter = null;
        for (byte[] d : delimiters) {
            int at = indexOf(in, d);
            if (at >= 0 && at < frameLength) {
                frameLength = at;
                delimiter = d;
            }
        }
        if (delimiter == null) {
            skipIfTooLong(ctx, in);
            return;
        }
        if (discarding || frameLength > maxFrameLength) {
            long total = discarding ? tooLongFrameLength + frameLength : frameLength;
            boolean alreadyReported = discarding && failFast;
            discarding = false;
            tooLongFrameLength = 0;
            in.skipBytes(frameLength + delimiter.length);
            if (!alreadyReported) {
                fail(ctx, total);
            }
            return;
        }
        if (stripDelimiter) {
            out.add(in.readRetainedSlice(frameLength));
            in.skipBytes(delimiter.length);
        } else {
            out.add(in.readRetainedSlice(frameLength + delimiter.length));
        }
    }

    /** No delimiter yet: skip what cannot belong to an acceptable frame, keeping a possibly split delimiter. */
    private void skipIfTooLong(ChannelHandlerContext ctx, ByteBuf in) {
        int skippable = in.readableBytes() - keepBack;
        if (!discarding && skippable > maxFrameLength) {
            discarding = true;
            if (failFast) {
                fail(ctx, skippable);
            }
        }
        if (discarding && skippable > 0) {
            tooLongFrameLength += skippable;
            in.skipBytes(skippable);
        }
    }

    /** Where {@code delimiter} starts, relative to the reader index, or -1. */
    private static int indexOf(ByteBuf in, byte[] delimiter) {
        int start = in.readerIndex();
        int end = in.writerIndex() - delimiter.length;
        for (int i = start; i <= end; i++) {
            i = in.indexOf(i, end + 1, delimiter[0]);
            if (i < 0) {
                return -1;
            }
            int j = 1;
            while (j < delimiter.length && in.getByte(i + j) == delimiter[j]) {
                j++;
            }
            if (j == delimiter.length) {
                return i - start;
            }
        }
        return -1;
    }

    private void fail(ChannelHandlerContext ctx, long length) {
        ctx.fireExceptionCaught(new TooLongFrameException("frame length " + (failFast && discarding ? "over " : "")
                + length + " exceeds the maximum of " + maxFrameLength + "; discarded"));
    }
}
