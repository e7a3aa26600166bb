package io.rill.handler.codec.compression;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * Decompresses a zlib, gzip or raw DEFLATE stream with {@link Inflater}.
 *
 * <p><b>Bounded output.</b> Decompressed bytes go downstream in chunks of at most
 * {@link #CHUNK_SIZE} bytes, each fired as soon as it is full, so one small read that expands
 * to gigabytes never sits in memory at once (docs/security-cases.md, case C-04). Two bounds end a bomb early,
 * each failing the stream with a {@link DecompressionLimitException} that names it, after which
 * the rest of the input is dropped:
 * <ul>
 *   <li>{@code maxDecompressedBytes} (C-01): the output of the whole stream, every gzip member
 *       counted together. Default {@link #DEFAULT_MAX_DECOMPRESSED_BYTES}.</li>
 *   <li>{@code maxRatio}: output bytes per input byte consumed, checked once
 *       {@link #RATIO_GRACE_BYTES} have come out, so a short message that compresses extremely
 *       well (a page of zeros) passes. Default {@link #DEFAULT_MAX_RATIO}; 0 turns it off.</li>
 * </ul>
 *
 * <p><b>Back-pressure.</b> When the channel is not writable after a chunk went downstream (what
 * it produced is answered faster than the peer reads the answers), inflating stops and reading
 * stops ({@link #suspendDecoding}); the next {@code channelWritabilityChanged} to writable
 * resumes both. So a peer that sends a bomb and never reads costs one chunk and its answers,
 * not the whole stream.
 *
 * <p><b>gzip.</b> The header is parsed in full (name, comment, extra field, header CRC; see
 * {@link GzipHeader}); the trailer's CRC-32 and ISIZE are checked. Concatenated members (RFC
 * 1952 §2.2) decode one after the other. For ZLIB and raw DEFLATE, bytes after the end of the
 * stream are dropped. A stream cut short by the end of input is reported as truncated.
 */
public class ZlibDecoder extends ByteToMessageDecoder {

    /** Output chunk size: big enough to amortise a fire per chunk, small enough to keep memory flat. */
    public static final int CHUNK_SIZE = 64 * 1024;
    /** Default cap on one stream's decompressed bytes: 64 MiB. */
    public static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 64L * 1024 * 1024;
    /**
     * Default cap on output bytes per input byte: well above what text and JSON compress by
     * (3 to 20), well below DEFLATE's ceiling of about 1032 that bombs approach.
     */
    public static final int DEFAULT_MAX_RATIO = 100;
    /** Output below this is exempt from the ratio check: one chunk. */
    public static final long RATIO_GRACE_BYTES = CHUNK_SIZE;

    /** Handed to the inflater after each use, so it keeps no view of a buffer we may release. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private enum State { DETECT, GZIP_HEADER, INFLATE, GZIP_TRAILER, DONE, FAILED }

    private final long maxDecompressedBytes;
    /** Output bytes allowed per input byte; 0 for no limit. */
    private final int maxRatio;
    /** The container; ZLIB_OR_NONE until the first bytes decide. */
    private ZlibWrapper wrapper;
    private State state;
    private Inflater inflater;
    /** CRC-32 of the current gzip member's output. */
    private final CRC32 crc = new CRC32();
    /** Output of the current gzip member, for ISIZE (which is modulo 2^32). */
    private long memberBytes;
    /** Output of the whole stream, against the cap. */
    private long totalBytes;
    /** Compressed bytes the inflaters consumed before the current {@link #inflate} call, for the ratio. */
    private long totalIn;
    /** Some input has been consumed: the end of input in the middle of the stream means truncation. */
    private boolean started;

    /** A ZLIB stream with the default bounds. */
    public ZlibDecoder() {
        this(ZlibWrapper.ZLIB, DEFAULT_MAX_DECOMPRESSED_BYTES);
    }

    /**
     * A stream in {@code wrapper} with the default bounds.
     *
     * @param wrapper the stream format; {@link ZlibWrapper#ZLIB_OR_NONE} detects it
     */
    public ZlibDecoder(ZlibWrapper wrapper) {
        this(wrapper, DEFAULT_MAX_DECOMPRESSED_BYTES);
    }

    /**
     * A stream in {@code wrapper} whose output is bounded by {@code maxDecompressedBytes}.
     *
     * @param wrapper              the stream format; {@link ZlibWrapper#ZLIB_OR_NONE} detects it
     * @param maxDecompressedBytes the stream fails once its output would exceed this
     * @throws IllegalArgumentException if {@code maxDecompressedBytes} is not positive
     */
    public ZlibDecoder(ZlibWrapper wrapper, long maxDecompressedBytes) {
        this(wrapper, maxDecompressedBytes, DEFAULT_MAX_RATIO);
    }

    /**
     * A stream in {@code wrapper} with both bounds; passing one fails with a {@link
     * DecompressionLimitException}.
     *
     * @param wrapper              the stream format; {@link ZlibWrapper#ZLIB_OR_NONE} detects it
     * @param maxDecompressedBytes the stream fails once its output would exceed this
     * @param maxRatio             the stream fails once its output exceeds this many bytes per input byte
     *                             (past {@link #RATIO_GRACE_BYTES}); 0 for no ratio limit
     * @throws IllegalArgumentException if a bound is out of range
     */
    public ZlibDecoder(ZlibWrapper wrapper, long maxDecompressedBytes, int maxRatio) {
        if (wrapper == null) {
            throw new NullPointerException("wrapper");
        }
        DecompressionLimits.validate(maxDecompressedBytes, maxRatio);
        this.wrapper = wrapper;
        this.maxDecompressedBytes = maxDecompressedBytes;
        this.maxRatio = maxRatio;
        this.state = wrapper == ZlibWrapper.ZLIB_OR_NONE ? State.DETECT
                : wrapper == ZlibWrapper.GZIP ? State.GZIP_HEADER : State.INFLATE;
        if (state == State.INFLATE) {
            inflater = new Inflater(wrapper == ZlibWrapper.NONE);
        }
    }

    /**
     * True once the stream ended (or failed); later input is dropped.
     *
     * @return whether the stream ended or failed
     */
    public boolean isClosed() {
        return state == State.DONE || state == State.FAILED;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            switch (state) {
                case DETECT -> detect(in);
                case GZIP_HEADER -> readGzipHeader(in);
                case INFLATE -> inflate(ctx, in);
                case GZIP_TRAILER -> readGzipTrailer(in);
                default -> in.skipBytes(in.readableBytes());
            }
        } catch (DecompressionException e) {
            fail(in);
            throw e;
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        boolean betweenMembers = state == State.GZIP_HEADER && !in.isReadable();
        if (started && !isClosed() && !betweenMembers) {
            fail(in);
            throw new DecompressionException(wrapper + " stream truncated: the input ended after "
                    + totalBytes + " decompressed bytes");
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        endInflater();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.fireChannelWritabilityChanged();
        if (isDecodingSuspended() && ctx.channel().isWritable()) {
            // In a task, not here: this event may come from inside a flush, where inflating would nest writes.
            ctx.executor().execute(() -> resumeIfWritable(ctx));
        }
    }

    private void resumeIfWritable(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            return; // it filled up again before this task ran: the next change to writable comes back here
        }
        try {
            resumeDecoding(ctx);
        } catch (Throwable t) {
            ctx.fireExceptionCaught(t);
        }
    }

    private void detect(ByteBuf in) {
        if (in.readableBytes() < 2) {
            return;
        }
        int cmf = in.getUnsignedByte(in.readerIndex());
        int flg = in.getUnsignedByte(in.readerIndex() + 1);
        // RFC 1950 §2.2: CM = 8 and the 16-bit header is a multiple of 31.
        boolean zlib = (cmf & 0x0f) == 8 && (cmf << 8 | flg) % 31 == 0;
        wrapper = zlib ? ZlibWrapper.ZLIB : ZlibWrapper.NONE;
        inflater = new Inflater(!zlib);
        state = State.INFLATE;
    }

    private void readGzipHeader(ByteBuf in) {
        int length = GzipHeader.length(in);
        if (length < 0) {
            return;
        }
        in.skipBytes(length);
        started = true;
        if (inflater == null) {
            inflater = new Inflater(true);
        } else {
            inflater.reset();
        }
        crc.reset();
        memberBytes = 0;
        state = State.INFLATE;
    }

    /**
     * Inflates all of {@code in} that the inflater takes, firing each full chunk at once. Returns
     * when the inflater wants more input, the stream ended, or the channel stopped being writable.
     */
    private void inflate(ChannelHandlerContext ctx, ByteBuf in) {
        int readable = in.readableBytes();
        inflater.setInput(in.nioBuffer(in.readerIndex(), readable));
        started |= readable > 0;
        try {
            while (!inflater.finished()) {
                if (inflater.needsDictionary()) {
                    throw new DecompressionException("the stream needs a preset dictionary, which is not supported");
                }
                ByteBuf chunk = nextChunk(ctx);
                int n;
                try {
                    ByteBuffer space = chunk.nioBuffer(0, chunk.capacity());
                    n = inflater.inflate(space);
                    chunk.writerIndex(n);
                } catch (DataFormatException | RuntimeException e) {
                    chunk.release();
                    throw e instanceof DecompressionException d ? d
                            : new DecompressionException("corrupt " + wrapper + " data: " + e.getMessage(), e);
                }
                if (!accept(chunk, n, totalIn + readable - inflater.getRemaining())) {
                    break; // no progress: the inflater needs more input
                }
                fireDecoded(ctx, chunk);
                if (!ctx.channel().isWritable() && inflater.getRemaining() > 0) {
                    // Input is left, so decode runs again on resume (with none left, the inflater
                    // holds at most the tail of one match, which the loop drains now).
                    suspendDecoding(ctx);
                    break;
                }
            }
        } finally {
            int consumed = readable - inflater.getRemaining();
            totalIn += consumed;
            in.skipBytes(consumed);
            inflater.setInput(EMPTY); // do not keep a view of the cumulation
        }
        if (inflater.finished()) {
            state = wrapper == ZlibWrapper.GZIP ? State.GZIP_TRAILER : State.DONE;
            if (state == State.DONE) {
                endInflater();
                in.skipBytes(in.readableBytes());
            }
        }
    }

    /** A buffer for the next output: one chunk, or one byte past the cap so passing it is detected. */
    private ByteBuf nextChunk(ChannelHandlerContext ctx) {
        return ctx.alloc().heapBuffer(DecompressionLimits.nextChunkSize(totalBytes, maxDecompressedBytes));
    }

    /**
     * Counts {@code n} new bytes against the bounds, {@code in} being all input consumed so far;
     * false (chunk released) if there were none.
     */
    private boolean accept(ByteBuf chunk, int n, long in) {
        if (n == 0) {
            chunk.release();
            return false;
        }
        totalBytes += n;
        try {
            DecompressionLimits.check(String.valueOf(wrapper), totalBytes, in, maxDecompressedBytes, maxRatio);
        } catch (DecompressionLimitException e) {
            chunk.release();
            throw e;
        }
        if (wrapper == ZlibWrapper.GZIP) {
            crc.update(chunk.nioBuffer(0, n));
            memberBytes += n;
        }
        return true;
    }

    /** RFC 1952 §2.3.1: CRC32 then ISIZE (output length mod 2^32), both little-endian. */
    private void readGzipTrailer(ByteBuf in) {
        if (in.readableBytes() < 8) {
            return;
        }
        long expectedCrc = in.readUnsignedIntLE();
        long expectedSize = in.readUnsignedIntLE();
        if (expectedCrc != crc.getValue()) {
            throw new DecompressionException(String.format("gzip CRC-32 mismatch: trailer says 0x%08x, data gives 0x%08x",
                    expectedCrc, crc.getValue()));
        }
        if (expectedSize != (memberBytes & 0xffffffffL)) {
            throw new DecompressionException("gzip ISIZE mismatch: trailer says " + expectedSize + ", data gives "
                    + (memberBytes & 0xffffffffL));
        }
        state = State.GZIP_HEADER; // another member may follow
    }

    private void fail(ByteBuf in) {
        state = State.FAILED;
        endInflater();
        in.skipBytes(in.readableBytes());
    }

    private void endInflater() {
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }
}
