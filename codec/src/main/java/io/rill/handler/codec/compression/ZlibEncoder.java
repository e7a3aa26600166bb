package io.rill.handler.codec.compression;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Compresses outbound {@code ByteBuf}s into one zlib, gzip or raw DEFLATE stream with
 * {@link Deflater}. Each message is sync-flushed, so the peer can decompress everything written
 * so far without waiting for the end of the stream.
 *
 * <p>The stream ends with {@link #finish()} or when the channel is closed: the last block is
 * written (and for gzip the CRC-32 and ISIZE trailer, RFC 1952 §2.3.1), then the channel
 * closes. Writing after the end fails with {@link io.rill.handler.codec.EncoderException}. The
 * stream's life (finish, close, removal) is the package's {@code BoundedCompressor}'s, shared with the brotli,
 * zstd, snappy and lz4 encoders.
 */
public class ZlibEncoder extends BoundedCompressor {

    /** RFC 1952 §2.3: magic, CM = deflate, no flags, no mtime, XFL 0, OS 255 (unknown). */
    private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
    /** Handed to the deflater after each use, so it keeps no view of a released buffer. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final ZlibWrapper wrapper;
    private final Deflater deflater;
    /** CRC-32 of the uncompressed bytes, for the gzip trailer. */
    private final CRC32 crc = new CRC32();
    private boolean headerWritten;

    /** ZLIB at the default level (6). */
    public ZlibEncoder() {
        this(ZlibWrapper.ZLIB, Deflater.DEFAULT_COMPRESSION);
    }

    /**
     * A stream in {@code wrapper} at the default level (6).
     *
     * @param wrapper the stream format: ZLIB, GZIP or NONE (raw deflate)
     * @throws IllegalArgumentException for {@link ZlibWrapper#ZLIB_OR_NONE}, which is for decoding only
     */
    public ZlibEncoder(ZlibWrapper wrapper) {
        this(wrapper, Deflater.DEFAULT_COMPRESSION);
    }

    /**
     * A stream in {@code wrapper} at compression {@code level}.
     *
     * @param wrapper the stream format: ZLIB, GZIP or NONE (raw deflate)
     * @param level   0 (store) to 9 (smallest), or -1 for zlib's default (6)
     * @throws IllegalArgumentException for {@link ZlibWrapper#ZLIB_OR_NONE} or a level out of range
     */
    public ZlibEncoder(ZlibWrapper wrapper, int level) {
        super(String.valueOf(wrapper));
        if (wrapper == null) {
            throw new NullPointerException("wrapper");
        }
        if (wrapper == ZlibWrapper.ZLIB_OR_NONE) {
            throw new IllegalArgumentException("ZLIB_OR_NONE is for decoding only");
        }
        if (level < -1 || level > 9) {
            throw new IllegalArgumentException("level: " + level + " (expected: -1..9)");
        }
        this.wrapper = wrapper;
        this.deflater = new Deflater(level, wrapper != ZlibWrapper.ZLIB);
    }

    @Override
    int maxCompressedLength(int n) {
        // Incompressible input grows by about 0.1% plus a few bytes of block headers and the flush marker.
        return n + (n >>> 10) + 16 + (headerWritten ? 0 : GZIP_HEADER.length);
    }

    @Override
    void compress(ChannelHandlerContext ctx, ByteBuf msg, ByteBuf out) {
        writeHeaderOnce(out);
        ByteBuffer input = msg.nioBuffer(msg.readerIndex(), msg.readableBytes());
        if (wrapper == ZlibWrapper.GZIP) {
            crc.update(input.duplicate());
        }
        deflater.setInput(input);
        try {
            deflate(out, Deflater.SYNC_FLUSH);
        } finally {
            deflater.setInput(EMPTY);
        }
    }

    private void writeHeaderOnce(ByteBuf out) {
        if (!headerWritten && wrapper == ZlibWrapper.GZIP) {
            out.writeBytes(GZIP_HEADER);
        }
        headerWritten = true;
    }

    /** Runs the deflater until it has nothing more to say for {@code flush}, growing {@code out} as needed. */
    private void deflate(ByteBuf out, int flush) {
        for (;;) {
            out.ensureWritable(64);
            int space = out.writableBytes();
            int n = deflater.deflate(out.nioBuffer(out.writerIndex(), space), flush);
            out.writerIndex(out.writerIndex() + n);
            // A full output buffer may mean more is pending (Deflater#deflate(ByteBuffer, int)).
            boolean more = flush == Deflater.NO_FLUSH ? !deflater.finished() : n == space;
            if (!more) {
                return;
            }
        }
    }

    @Override
    void end(ByteBuf footer) {
        writeHeaderOnce(footer); // an empty gzip stream still has its header
        deflater.finish();
        deflate(footer, Deflater.NO_FLUSH);
        if (wrapper == ZlibWrapper.GZIP) {
            footer.writeIntLE((int) crc.getValue());
            footer.writeIntLE((int) deflater.getBytesRead()); // ISIZE: input size modulo 2^32
        }
    }

    @Override
    void release() {
        deflater.end();
    }
}
