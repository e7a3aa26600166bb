package io.rill.handler.codec.compression;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

import com.aayushatharva.brotli4j.encoder.Encoder;
import com.aayushatharva.brotli4j.encoder.EncoderJNI;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.ChannelHandlerContext;

/**
 * Compresses outbound {@code ByteBuf}s into one brotli stream (RFC 7932) with brotli4j
 * ({@code com.aayushatharva.brotli4j:brotli4j} and its native jar, optional: see
 * {@link CompressionLibrary}), flushed after each message; {@link #finish()} or closing the
 * channel ends the stream.
 */
public class BrotliEncoder extends BoundedCompressor {

    /** Quality 4: fast enough for responses made per request, well ahead of gzip -6 in size. */
    public static final int DEFAULT_QUALITY = 4;
    /** A 4 MiB window (2^22): far-back matches for large bodies, and bounded memory on both sides. */
    public static final int DEFAULT_WINDOW_LOG = 22;
    /** Bytes handed to the library per call. */
    private static final int INPUT_SIZE = 64 * 1024;

    private final int quality;
    private final int windowLog;
    /** Created at the first write, freed at the end. */
    private EncoderJNI.Wrapper brotli;

    /** Quality {@link #DEFAULT_QUALITY}, window 2^{@value #DEFAULT_WINDOW_LOG}. */
    public BrotliEncoder() {
        this(DEFAULT_QUALITY, DEFAULT_WINDOW_LOG);
    }

    /**
     * @param quality   0 (fastest) to 11 (smallest)
     * @param windowLog the window is 2^windowLog bytes, 10 to 24
     * @throws IllegalStateException    if brotli4j is not available, naming the jars
     * @throws IllegalArgumentException if a setting is out of range
     */
    public BrotliEncoder(int quality, int windowLog) {
        super("brotli");
        CompressionLibrary.BROTLI.ensureAvailable();
        if (quality < 0 || quality > 11 || windowLog < 10 || windowLog > 24) {
            throw new IllegalArgumentException("quality " + quality + " (expected: 0..11) or windowLog " + windowLog
                    + " (expected: 10..24) out of range");
        }
        this.quality = quality;
        this.windowLog = windowLog;
    }

    /**
     * Compresses all readable bytes of {@code in} into one complete brotli stream in a new buffer;
     * for a body known whole up front, such as a full HTTP response. The input goes to the library
     * with the end of the stream, and the encoder's input buffer is no bigger than the body: for
     * 2 KiB about twice as fast as opening a stream, flushing and ending it.
     *
     * @param alloc     where the result is allocated
     * @param in        the bytes to compress; its indexes are left as they are and it is not released
     * @param quality   as for {@link #BrotliEncoder(int, int)}
     * @param windowLog as for {@link #BrotliEncoder(int, int)}
     * @return the stream, which the caller releases
     * @throws IllegalStateException    if brotli4j is not available, naming the jars
     * @throws IllegalArgumentException if a setting is out of range
     */
    public static ByteBuf compressWhole(ByteBufAllocator alloc, ByteBuf in, int quality, int windowLog) {
        CompressionLibrary.BROTLI.ensureAvailable();
        if (quality < 0 || quality > 11 || windowLog < 10 || windowLog > 24) {
            throw new IllegalArgumentException("quality " + quality + " (expected: 0..11) or windowLog " + windowLog
                    + " (expected: 10..24) out of range");
        }
        int n = in.readableBytes();
        EncoderJNI.Wrapper b;
        try {
            b = new EncoderJNI.Wrapper(Math.max(64, Math.min(n, INPUT_SIZE)), quality, windowLog, Encoder.Mode.GENERIC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuf out = alloc.buffer(n + (n >>> 12) + 32);
        try {
            int at = in.readerIndex();
            int left = n;
            do {
                ByteBuffer input = b.getInputBuffer();
                input.clear();
                int chunk = Math.min(left, input.capacity());
                in.getBytes(at, input.limit(chunk));
                at += chunk;
                left -= chunk;
                run(b, left > 0 ? EncoderJNI.Operation.PROCESS : EncoderJNI.Operation.FINISH, chunk, out);
            } while (left > 0);
            return out;
        } catch (RuntimeException | Error e) {
            out.release();
            throw e;
        } finally {
            b.destroy();
        }
    }

    private EncoderJNI.Wrapper brotli() {
        if (brotli == null) {
            try {
                brotli = new EncoderJNI.Wrapper(INPUT_SIZE, quality, windowLog, Encoder.Mode.GENERIC);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return brotli;
    }

    @Override
    int maxCompressedLength(int length) {
        // Incompressible data grows by a few bytes per 64 KiB meta-block, plus the flush.
        return length + (length >>> 12) + 32;
    }

    @Override
    void compress(ChannelHandlerContext ctx, ByteBuf in, ByteBuf out) {
        EncoderJNI.Wrapper b = brotli();
        while (in.isReadable()) {
            int n = Math.min(in.readableBytes(), INPUT_SIZE);
            ByteBuffer input = b.getInputBuffer();
            input.clear();
            in.readBytes(input.limit(n));
            run(b, in.isReadable() ? EncoderJNI.Operation.PROCESS : EncoderJNI.Operation.FLUSH, n, out);
        }
    }

    @Override
    void end(ByteBuf out) {
        run(brotli(), EncoderJNI.Operation.FINISH, 0, out);
    }

    /** Pushes {@code n} input bytes with {@code op} and drains all output it leads to. */
    private static void run(EncoderJNI.Wrapper b, EncoderJNI.Operation op, int n, ByteBuf out) {
        b.push(op, n);
        for (;;) {
            if (!b.isSuccess()) {
                throw new IllegalStateException("the brotli encoder failed");
            }
            if (b.hasMoreOutput()) {
                out.writeBytes(b.pull());
            } else if (b.hasRemainingInput() || (op == EncoderJNI.Operation.FINISH && !b.isFinished())) {
                b.push(op, 0);
            } else {
                return;
            }
        }
    }

    @Override
    void release() {
        if (brotli != null) {
            brotli.destroy();
            brotli = null;
        }
    }
}
