package io.rill.handler.codec;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Skips the rest of an oversized frame whose length is known up front (length-field and varint
 * framing) and reports it once as a {@link TooLongFrameException} through
 * {@code exceptionCaught}: as soon as its length is seen (fail-fast) or after its last byte was
 * skipped. The report is fired, not thrown, so frames after the oversized one decode normally.
 */
final class FrameDiscarder {

    private final long maxFrameLength;
    private final boolean failFast;
    /** Bytes of the oversized frame still to skip; 0 when not discarding. */
    private long bytesToDiscard;
    /** Length of the frame being discarded, for the report. */
    private long tooLongFrameLength;

    FrameDiscarder(long maxFrameLength, boolean failFast) {
        this.maxFrameLength = maxFrameLength;
        this.failFast = failFast;
    }

    boolean isDiscarding() {
        return bytesToDiscard > 0;
    }

    /** Starts skipping a frame of {@code frameLength} bytes that begins at {@code in}'s reader index. */
    void start(ChannelHandlerContext ctx, ByteBuf in, long frameLength) {
        tooLongFrameLength = frameLength;
        bytesToDiscard = frameLength;
        if (failFast) {
            report(ctx, frameLength);
        }
        skip(ctx, in);
    }

    /** Skips as much of the oversized frame as {@code in} holds; reports it when done unless fail-fast did. */
    void skip(ChannelHandlerContext ctx, ByteBuf in) {
        int n = (int) Math.min(bytesToDiscard, in.readableBytes());
        in.skipBytes(n);
        bytesToDiscard -= n;
        if (bytesToDiscard == 0 && !failFast) {
            report(ctx, tooLongFrameLength);
        }
    }

    private void report(ChannelHandlerContext ctx, long frameLength) {
        ctx.fireExceptionCaught(new TooLongFrameException("frame length " + frameLength + " exceeds the maximum of "
                + maxFrameLength + (failFast ? "; discarding it" : "; discarded")));
    }
}
