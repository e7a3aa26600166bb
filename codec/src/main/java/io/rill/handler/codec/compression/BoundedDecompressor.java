package io.rill.handler.codec.compression;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * What the brotli and zstd decoders share: the two bounds of {@link ZlibDecoder}
 * (decompressed bytes per stream, output bytes per input byte), truncation at the end of input,
 * failing for good on the first error, and stopping while the channel is not writable.
 *
 * <p>A subclass decodes in {@link #decompress}, hands each piece of output (at most
 * {@link #CHUNK_SIZE} bytes for a streaming format, one block for a block format) to
 * {@link #emit}, which counts it against both bounds before anyone sees it, and reports the
 * compressed bytes it took with {@link #consumed}. {@link #inStream} says whether the input
 * ended in the middle of a frame.
 */
abstract class BoundedDecompressor extends ByteToMessageDecoder {

    /** Output chunk size of the streaming formats, as {@link ZlibDecoder#CHUNK_SIZE}. */
    static final int CHUNK_SIZE = ZlibDecoder.CHUNK_SIZE;

    /** The format's name, for messages: "zstd", "brotli", ... */
    private final String format;
    private final long maxDecompressedBytes;
    /** Output bytes allowed per input byte; 0 for no limit. */
    private final int maxRatio;
    /** Output so far, all frames of the stream together. */
    private long totalOut;
    /** Compressed bytes taken so far. */
    private long totalIn;
    /** Set on the first error: the native state is freed and the rest of the input dropped. */
    private boolean failed;
    /** In decodeLast: the input has ended, so everything is decoded now, writable or not. */
    private boolean ending;

    BoundedDecompressor(String format, long maxDecompressedBytes, int maxRatio) {
        DecompressionLimits.validate(maxDecompressedBytes, maxRatio);
        this.format = format;
        this.maxDecompressedBytes = maxDecompressedBytes;
        this.maxRatio = maxRatio;
    }

    /**
     * Decodes what it can of {@code in}, skipping what it took. Returns early (input left) after
     * {@link #emit} returned false.
     */
    abstract void decompress(ChannelHandlerContext ctx, ByteBuf in);

    /** True while the input stopped inside a frame or block, so its end means truncation. */
    abstract boolean inStream();

    /** Frees native state; called once the stream failed or the handler left; idempotent. */
    abstract void release();

    /**
     * True while decoded output waits inside the library or this decoder: then decoding may stop
     * for back-pressure even with no compressed byte left, and resuming drains it.
     */
    boolean outputWaiting() {
        return false;
    }

    /**
     * True once the stream failed; later input is dropped.
     *
     * @return whether the stream failed
     */
    public boolean isFailed() {
        return failed;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            decompress(ctx, in);
        } catch (DecompressionException e) {
            fail(in);
            throw e;
        } catch (RuntimeException e) {
            // The libraries report corrupt input with exceptions of their own.
            fail(in);
            throw new DecompressionException("corrupt " + format + " data: " + e.getMessage(), e);
        }
    }

    @Override
    protected final void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        ending = true;
        decode(ctx, in, out);
        if (!failed && (inStream() || in.isReadable())) {
            fail(in);
            throw new DecompressionException(format + " stream truncated: the input ended inside a frame, after "
                    + totalOut + " decompressed bytes");
        }
    }

    @Override
    protected final void handlerRemoved0(ChannelHandlerContext ctx) {
        release();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.fireChannelWritabilityChanged();
        if (isDecodingSuspended() && ctx.channel().isWritable()) {
            // In a task: this event may come from inside a flush, where decoding would nest writes.
            ctx.executor().execute(() -> resumeIfWritable(ctx));
        }
    }

    private void resumeIfWritable(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            return; // filled up again before this ran: the next change to writable comes back here
        }
        try {
            if (outputWaiting() && !internalBuffer().isReadable()) {
                // No input waits, so resumeDecoding would not call decode: drain what the library holds here.
                decode(ctx, io.rill.buffer.Unpooled.EMPTY_BUFFER, null);
                if (failed || outputWaiting()) {
                    return; // not writable again (or failed): the next change to writable comes back here
                }
            }
            resumeDecoding(ctx);
        } catch (Throwable t) {
            ctx.fireExceptionCaught(t);
        }
    }

    /** Counts {@code bytes} of compressed input as taken, for the ratio. */
    final void consumed(long bytes) {
        totalIn += bytes;
    }

    /** The most bytes the next piece of output may have before the cap is passed, plus one to see it passed. */
    final int nextChunkSize() {
        return DecompressionLimits.nextChunkSize(totalOut, maxDecompressedBytes);
    }

    /** The cap, for a format that announces its content size up front. */
    final long maxDecompressedBytes() {
        return maxDecompressedBytes;
    }

    /**
     * Counts {@code chunk} against both bounds and passes it on, or releases it and throws.
     * An empty chunk is released.
     *
     * @param inputLeft whether compressed bytes wait in the cumulation: then, or while
     *                  {@link #outputWaiting()}, decoding stops for back-pressure (never once the input ended)
     * @return false if the channel is not writable and decoding was suspended: return at once
     */
    final boolean emit(ChannelHandlerContext ctx, ByteBuf chunk, boolean inputLeft) {
        int n = chunk.readableBytes();
        if (n == 0) {
            chunk.release();
            return true;
        }
        totalOut += n;
        try {
            DecompressionLimits.check(format, totalOut, totalIn, maxDecompressedBytes, maxRatio);
        } catch (DecompressionLimitException e) {
            chunk.release();
            throw e;
        }
        fireDecoded(ctx, chunk);
        if (!ending && (inputLeft || outputWaiting()) && !ctx.channel().isWritable()) {
            suspendDecoding(ctx);
            return false;
        }
        return true;
    }

    /** Fails the stream when a frame announces more content than the cap allows, before decoding it. */
    final void checkAnnouncedSize(long contentSize) {
        if (contentSize > maxDecompressedBytes - totalOut) {
            throw new DecompressionLimitException(format + " frame announces " + contentSize
                    + " bytes, more than the maximum of " + maxDecompressedBytes + " (maxDecompressedBytes)",
                    "maxDecompressedBytes", maxDecompressedBytes);
        }
    }

    final String format() {
        return format;
    }

    private void fail(ByteBuf in) {
        failed = true;
        release();
        in.skipBytes(in.readableBytes());
    }
}
