package io.rill.handler.codec.compression;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

import com.aayushatharva.brotli4j.decoder.DecoderJNI;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Decompresses a brotli stream (RFC 7932) with brotli4j ({@code com.aayushatharva.brotli4j:brotli4j}
 * and its native jar, optional: see {@link CompressionLibrary}). Bytes after the end of the stream
 * are an error: the library refuses them when they reach it together with the stream's last bytes,
 * so this decoder refuses them too when they come later, and the outcome does not depend on how the
 * input was cut into reads (docs/fuzz-findings/README.md, fixed: a one-byte empty stream then garbage
 * failed fed whole and passed fed byte by byte).
 *
 * <p><b>Bounded.</b> The library hands out what it decoded in pieces no larger than the stream's
 * window (at most 16 MiB, RFC 7932 §9.1; its large-window extension is not enabled), which this
 * decoder copies downstream in chunks of at most 64 KiB, counting each against
 * {@code maxDecompressedBytes} and {@code maxRatio} as {@link ZlibDecoder} does
 * (docs/security-cases.md C-06).
 */
public class BrotliDecoder extends BoundedDecompressor {

    /** Bytes handed to the library per call. */
    private static final int INPUT_SIZE = 64 * 1024;

    /** Created at the first input, freed at the end. */
    private DecoderJNI.Wrapper brotli;
    /** Decoded bytes the library handed out and not yet passed on; valid until the next push. */
    private ByteBuffer pending;
    /** Some input was taken and the stream has not ended. */
    private boolean inStream;
    /** The stream ended; what follows is dropped. */
    private boolean done;

    /** A stream with the default bounds of {@link ZlibDecoder}. */
    public BrotliDecoder() {
        this(ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, ZlibDecoder.DEFAULT_MAX_RATIO);
    }

    /**
     * A stream with the given bounds.
     *
     * @param maxDecompressedBytes the stream fails once its output would exceed this
     * @param maxRatio             output bytes allowed per input byte past the first 64 KiB; 0 for no limit
     * @throws IllegalStateException    if brotli4j is not available, naming the jars
     * @throws IllegalArgumentException if a bound is out of range
     */
    public BrotliDecoder(long maxDecompressedBytes, int maxRatio) {
        super("brotli", maxDecompressedBytes, maxRatio);
        CompressionLibrary.BROTLI.ensureAvailable();
    }

    @Override
    void decompress(ChannelHandlerContext ctx, ByteBuf in) {
        if (done) {
            trailing(in);
            return;
        }
        if (brotli == null) {
            try {
                brotli = new DecoderJNI.Wrapper(INPUT_SIZE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (;;) {
            if (pending != null) {
                if (!passOn(ctx, in)) {
                    return;
                }
                continue;
            }
            switch (brotli.getStatus()) {
                case DONE -> {
                    done = true;
                    inStream = false;
                    release();
                    trailing(in);
                    return;
                }
                case OK -> brotli.push(0);
                case NEEDS_MORE_OUTPUT -> pending = brotli.pull();
                case NEEDS_MORE_INPUT -> {
                    if (brotli.hasOutput()) {
                        pending = brotli.pull();
                    } else if (!in.isReadable()) {
                        return;
                    } else {
                        int n = Math.min(in.readableBytes(), INPUT_SIZE);
                        ByteBuffer input = brotli.getInputBuffer();
                        input.clear();
                        in.readBytes(input.limit(n));
                        consumed(n);
                        inStream = true;
                        brotli.push(n);
                    }
                }
                // The library also says ERROR when bytes follow the end of the stream in the same push.
                default -> throw new DecompressionException("corrupt brotli data (or bytes after the end of the stream):"
                        + " the decoder reports " + brotli.getStatus());
            }
        }
    }

    /** Fails if bytes follow the end of the stream, as the library does when they arrive in the same push. */
    private static void trailing(ByteBuf in) {
        if (in.isReadable()) {
            throw new DecompressionException("corrupt brotli data (or bytes after the end of the stream): "
                    + in.readableBytes() + " bytes follow the end of the stream");
        }
    }

    /** Copies {@link #pending} downstream chunk by chunk; false if decoding was suspended. */
    private boolean passOn(ChannelHandlerContext ctx, ByteBuf in) {
        while (pending.hasRemaining()) {
            int n = Math.min(pending.remaining(), nextChunkSize());
            ByteBuf chunk = ctx.alloc().buffer(n);
            int limit = pending.limit();
            pending.limit(pending.position() + n);
            chunk.writeBytes(pending);
            pending.limit(limit);
            if (!emit(ctx, chunk, in.isReadable())) {
                return false;
            }
        }
        pending = null;
        return true;
    }

    @Override
    boolean outputWaiting() {
        if (pending != null && pending.hasRemaining()) {
            return true;
        }
        return brotli != null && !done && (brotli.hasOutput() || brotli.getStatus() == DecoderJNI.Status.NEEDS_MORE_OUTPUT
                || brotli.getStatus() == DecoderJNI.Status.OK);
    }

    @Override
    boolean inStream() {
        return inStream;
    }

    @Override
    void release() {
        pending = null;
        if (brotli != null) {
            brotli.destroy();
            brotli = null;
        }
    }
}
