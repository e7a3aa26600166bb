package io.rill.handler.codec;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Splits the byte stream into frames of exactly {@code frameLength} bytes, however the bytes
 * arrive:
 * <pre>
 *   reads:  | A | BC DEF | GHI |        frameLength 3
 *   frames: | ABC | DEF | GHI |
 * </pre>
 * Each frame is a retained slice of the received bytes (no copy); the receiver releases it.
 */
public class FixedLengthFrameDecoder extends ByteToMessageDecoder {

    private final int frameLength;

    /**
     * Splits the stream into frames of {@code frameLength} bytes.
     *
     * @param frameLength the length of every frame; positive
     * @throws IllegalArgumentException if {@code frameLength} is not positive
     */
    public FixedLengthFrameDecoder(int frameLength) {
        if (frameLength <= 0) {
            throw new IllegalArgumentException("frameLength: " + frameLength + " (expected: > 0)");
        }
        this.frameLength = frameLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() >= frameLength) {
            out.add(in.readRetainedSlice(frameLength));
        }
    }
}
