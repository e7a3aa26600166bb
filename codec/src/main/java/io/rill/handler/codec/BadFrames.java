package io.rill.handler.codec;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * The bad-input states shared by length-prefixed framings (length field, varint).
 *
 * <p>An oversized frame, whose length is known up front, is skipped and reported once as a
 * {@link TooLongFrameException} through {@code exceptionCaught}: as soon as its length is seen
 * (fail-fast) or after its last byte was skipped. The report is fired, not thrown, so frames
 * after the oversized one decode normally.
 *
 * <p>A corrupt length leaves no way to find the next frame: {@link #corrupt} drops everything
 * buffered and every later byte, and returns the exception for the decoder to throw.
 */
final class BadFrames {

    private final long maxFrameLength;
    private final boolean failFast;
    /** Bytes of the oversized frame still to skip; 0 when not discarding. */
    private long bytesToDiscard;
    /** Length of the frame being discarded, for the report. */
    private long tooLongFrameLength;
    /** A corrupt length was seen: every later byte is dropped. */
    private boolean corrupted;

    BadFrames(long maxFrameLength, boolean failFast) {
        this.maxFrameLength = maxFrameLength;
        this.failFast = failFast;
    }

    /**
     * Drops what belongs to an oversized frame or follows a corrupt one; true if the decoder
     * must not look at {@code in} now.
     */
    boolean skip(ChannelHandlerContext ctx, ByteBuf in) {
        if (corrupted) {
            in.skipBytes(in.readableBytes());
            return true;
        }
        if (bytesToDiscard > 0) {
            skipPart(ctx, in);
            return true;
        }
        return false;
    }

    /** Enters the corrupt state, dropping {@code in}'s bytes; returns the exception to throw. */
    CorruptedFrameException corrupt(ByteBuf in, String message) {
        corrupted = true;
        in.skipBytes(in.readableBytes());
        return new CorruptedFrameException(message);
    }

    /** Starts skipping a frame of {@code frameLength} bytes that begins at {@code in}'s reader index. */
    void skipOversized(ChannelHandlerContext ctx, ByteBuf in, long frameLength) {
        tooLongFrameLength = frameLength;
        bytesToDiscard = frameLength;
        if (failFast) {
            report(ctx, frameLength);
        }
        skipPart(ctx, in);
    }

    /** Skips as much of the oversized frame as {@code in} holds; reports it when done unless fail-fast did. */
    private void skipPart(ChannelHandlerContext ctx, ByteBuf in) {
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
