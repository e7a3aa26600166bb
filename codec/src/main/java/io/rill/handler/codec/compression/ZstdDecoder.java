package io.rill.handler.codec.compression;

import java.nio.ByteBuffer;

import com.github.luben.zstd.ZstdDecompressCtx;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Decompresses a stream of Zstandard frames (RFC 8878) with zstd-jni
 * ({@code com.github.luben:zstd-jni}, an optional dependency: see {@link CompressionLibrary}).
 * Frames may follow one another; the stream's output counts against one cap.
 *
 * <p><b>Bounded.</b> Output goes downstream in chunks of at most 64 KiB as it is produced. Three
 * bounds end a bomb, each with a {@link DecompressionLimitException} naming it: the stream's
 * decompressed bytes ({@code maxDecompressedBytes}, default {@link ZlibDecoder#DEFAULT_MAX_DECOMPRESSED_BYTES}),
 * output bytes per input byte ({@code maxRatio}, default {@link ZlibDecoder#DEFAULT_MAX_RATIO}), and the
 * window a frame may ask the decoder to allocate ({@code maxWindowLog}, default
 * {@link #DEFAULT_MAX_WINDOW_LOG}: 8 MiB, what RFC 9659 requires of the HTTP {@code zstd} coding;
 * a frame that asks for more fails instead of costing up to 2 GiB of native memory; zstd-jni
 * reports it as corrupt data whose message says the window is too large). docs/security-cases.md
 * C-06.
 */
public class ZstdDecoder extends BoundedDecompressor {

    /** 2^23 = 8 MiB: the largest window RFC 9659 lets an HTTP sender use. */
    public static final int DEFAULT_MAX_WINDOW_LOG = 23;

    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);

    private final int maxWindowLog;
    /** Created at the first input, freed at the end. */
    private ZstdDecompressCtx zstd;
    /** Where heap input is copied for the library, which reads direct memory only. */
    private ByteBuf staging;
    /** Input ended inside a frame (some of it taken, the frame not complete). */
    private boolean inFrame;
    /** The last call filled its output buffer: the library may hold more output. */
    private boolean outputMayWait;

    /** A stream with the default bounds. */
    public ZstdDecoder() {
        this(ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, ZlibDecoder.DEFAULT_MAX_RATIO, DEFAULT_MAX_WINDOW_LOG);
    }

    /**
     * A stream with the given bounds.
     *
     * @param maxDecompressedBytes the stream fails once its output would exceed this
     * @param maxRatio             output bytes allowed per input byte past the first 64 KiB; 0 for no limit
     * @param maxWindowLog         a frame may use a window of at most 2^maxWindowLog bytes (10 to 31)
     * @throws IllegalStateException    if zstd-jni is not available, naming the jar
     * @throws IllegalArgumentException if a bound is out of range
     */
    public ZstdDecoder(long maxDecompressedBytes, int maxRatio, int maxWindowLog) {
        super("zstd", maxDecompressedBytes, maxRatio);
        CompressionLibrary.ZSTD.ensureAvailable();
        if (maxWindowLog < 10 || maxWindowLog > 31) {
            throw new IllegalArgumentException("maxWindowLog: " + maxWindowLog + " (expected: 10..31)");
        }
        this.maxWindowLog = maxWindowLog;
    }

    @Override
    void decompress(ChannelHandlerContext ctx, ByteBuf in) {
        if (zstd == null) {
            zstd = new ZstdDecompressCtx().setLongMax(maxWindowLog);
        }
        if (outputMayWait && !in.isReadable()) {
            drain(ctx, EMPTY, 0); // output held in the library from input taken before a pause
            return;
        }
        while (in.isReadable()) {
            ByteBuffer src = input(ctx, in);
            int taken = src.position();
            boolean more = drain(ctx, src, in.readableBytes() - src.remaining());
            taken = src.position() - taken;
            in.skipBytes(taken);
            if (!more || taken == 0) {
                return;
            }
        }
    }

    /** {@code in}'s bytes as direct memory: itself, or up to 64 KiB of it copied. */
    private ByteBuffer input(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.isDirect() && in.nioBufferCount() == 1) {
            return in.nioBuffer(in.readerIndex(), in.readableBytes());
        }
        if (staging == null) {
            staging = ctx.alloc().directBuffer(CHUNK_SIZE, CHUNK_SIZE);
        }
        int n = Math.min(in.readableBytes(), CHUNK_SIZE);
        staging.clear();
        staging.writeBytes(in, in.readerIndex(), n);
        return staging.nioBuffer(0, n);
    }

    /**
     * Decompresses {@code src} until it is used up and the output flushed; false if suspended
     * ({@code beyondSrc}: bytes of the cumulation after {@code src}, which bring decoding back).
     */
    private boolean drain(ChannelHandlerContext ctx, ByteBuffer src, int beyondSrc) {
        for (;;) {
            ByteBuf chunk = ctx.alloc().directBuffer(nextChunkSize());
            ByteBuffer dst = chunk.nioBuffer(0, chunk.capacity());
            int before = src.position();
            boolean frameDone;
            try {
                frameDone = zstd.decompressDirectByteBufferStream(dst, src);
            } catch (RuntimeException e) {
                chunk.release();
                throw e;
            }
            consumed(src.position() - before); // now, so the ratio check of this chunk counts it
            if (frameDone) {
                inFrame = false;
            } else if (src.position() > before || dst.position() > 0) {
                inFrame = true;
            }
            chunk.writerIndex(dst.position());
            boolean full = !dst.hasRemaining();
            outputMayWait = full;
            if (!emit(ctx, chunk, src.hasRemaining() || beyondSrc > 0)) {
                return false;
            }
            if (!src.hasRemaining() && !full) {
                return true; // all input taken and all output it gave flushed
            }
        }
    }

    @Override
    boolean outputWaiting() {
        return outputMayWait;
    }

    @Override
    boolean inStream() {
        return inFrame;
    }

    @Override
    void release() {
        if (zstd != null) {
            zstd.close();
            zstd = null;
        }
        if (staging != null) {
            staging.release();
            staging = null;
        }
    }
}
