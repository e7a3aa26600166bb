package io.rill.handler.codec.compression;

import java.io.IOException;
import java.util.zip.CRC32C;

import org.xerial.snappy.Snappy;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Compresses outbound {@code ByteBuf}s into one stream in the Snappy framing format (see
 * {@link SnappyFraming}) with snappy-java ({@code org.xerial.snappy:snappy-java}, optional: see
 * {@link CompressionLibrary}). The stream identifier goes out with the first message; each
 * message becomes chunks of at most 64 KiB, each with its masked CRC-32C, stored uncompressed when
 * snappy would not make it smaller. The format has no end marker: {@link #finish()} only stops the
 * encoder.
 */
public class SnappyFrameEncoder extends BoundedCompressor {

    private final CRC32C crc = new CRC32C();
    /** The identifier was written. */
    private boolean started;
    /** Input without an array of its own is copied here for the library; created when needed. */
    private byte[] scratch;
    /** Where a chunk is compressed before its header is known. */
    private byte[] compressed;

    /**
     * @throws IllegalStateException if snappy-java is not available, naming the jar
     */
    public SnappyFrameEncoder() {
        super("snappy");
        CompressionLibrary.SNAPPY.ensureAvailable();
    }

    @Override
    int maxCompressedLength(int length) {
        int chunks = Math.max(1, (length + SnappyFraming.MAX_DATA - 1) / SnappyFraming.MAX_DATA);
        return (int) Math.min(Integer.MAX_VALUE, SnappyFraming.IDENTIFIER_CHUNK.length + (long) length + 8L * chunks);
    }

    @Override
    void compress(ChannelHandlerContext ctx, ByteBuf in, ByteBuf out) {
        if (!started) {
            started = true;
            out.writeBytes(SnappyFraming.IDENTIFIER_CHUNK);
        }
        if (compressed == null) {
            compressed = new byte[SnappyFraming.MAX_COMPRESSED_CHUNK];
        }
        while (in.isReadable()) {
            int n = Math.min(in.readableBytes(), SnappyFraming.MAX_DATA);
            byte[] src;
            int srcOff;
            if (in.hasArray()) {
                src = in.array();
                srcOff = in.arrayOffset() + in.readerIndex();
            } else {
                if (scratch == null) {
                    scratch = new byte[SnappyFraming.MAX_DATA];
                }
                in.getBytes(in.readerIndex(), scratch, 0, n);
                src = scratch;
                srcOff = 0;
            }
            crc.reset();
            crc.update(src, srcOff, n);
            int checksum = SnappyFraming.maskedCrc32c(crc);
            int size;
            try {
                size = Snappy.compress(src, srcOff, n, compressed, 0);
            } catch (IOException e) {
                throw new IllegalStateException("snappy failed to compress: " + e.getMessage(), e);
            }
            boolean smaller = size < n;
            int length = 4 + (smaller ? size : n);
            out.ensureWritable(4 + length);
            out.writeByte(smaller ? SnappyFraming.COMPRESSED : SnappyFraming.UNCOMPRESSED);
            out.writeMediumLE(length);
            out.writeIntLE(checksum);
            if (smaller) {
                out.writeBytes(compressed, 0, size);
            } else {
                out.writeBytes(src, srcOff, n);
            }
            in.skipBytes(n);
        }
    }

    @Override
    void end(ByteBuf out) {
        // The framing format has no trailer: the stream ends where the chunks end.
    }

    @Override
    void release() {
        scratch = null;
        compressed = null;
    }
}
