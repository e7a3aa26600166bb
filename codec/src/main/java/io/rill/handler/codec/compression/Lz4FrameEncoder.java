package io.rill.handler.codec.compression;

import java.nio.ByteBuffer;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.StreamingXXHash32;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Compresses outbound {@code ByteBuf}s into one LZ4 frame (see {@link Lz4Frame}) with lz4-java
 * ({@code at.yawk.lz4:lz4-java}, optional: see {@link CompressionLibrary}). Blocks are independent
 * (any LZ4 frame decoder reads them, lz4-java's included); each message becomes blocks of at most
 * the frame's maximum block size, flushed at once, stored uncompressed when LZ4 would not make
 * them smaller; {@link #finish()} or closing the channel writes the EndMark and the content
 * checksum.
 */
public class Lz4FrameEncoder extends BoundedCompressor {

    /** 64 KiB blocks: what the lz4 tool uses by default for streams, and the least memory per side. */
    public static final int DEFAULT_MAX_BLOCK_SIZE = 64 * 1024;

    private final LZ4Compressor lz4;
    /** Set after the availability check, like {@link #lz4}. */
    private final XXHash32 xxhash;
    private final int maxBlockSize;
    private final boolean blockChecksums;
    /** Created with the header, freed at the end. */
    private StreamingXXHash32 contentHash;
    /** Input without an array of its own is copied here for the content hash, which reads arrays only. */
    private byte[] scratch;

    /** 64 KiB blocks, no block checksums (the content checksum covers the frame), LZ4's fast mode. */
    public Lz4FrameEncoder() {
        this(DEFAULT_MAX_BLOCK_SIZE, false, false);
    }

    /**
     * @param maxBlockSize    64 KiB, 256 KiB, 1 MiB or 4 MiB
     * @param blockChecksums  whether each block carries its xxh32, so corruption is noticed per block
     * @param highCompression LZ4 HC: smaller output, several times slower to compress (decoding is as fast)
     * @throws IllegalStateException    if lz4-java is not available, naming the jar
     * @throws IllegalArgumentException if the block size is not one of the four
     */
    public Lz4FrameEncoder(int maxBlockSize, boolean blockChecksums, boolean highCompression) {
        super("lz4");
        CompressionLibrary.LZ4.ensureAvailable();
        if (Lz4Frame.blockSizeCode(maxBlockSize) < 0) {
            throw new IllegalArgumentException("maxBlockSize: " + maxBlockSize + " (expected: 65536, 262144, 1048576 or 4194304)");
        }
        this.maxBlockSize = maxBlockSize;
        this.blockChecksums = blockChecksums;
        LZ4Factory factory = LZ4Factory.fastestInstance();
        this.lz4 = highCompression ? factory.highCompressor() : factory.fastCompressor();
        this.xxhash = XXHashFactory.fastestInstance().hash32();
    }

    @Override
    int maxCompressedLength(int length) {
        int blocks = Math.max(1, (length + maxBlockSize - 1) / maxBlockSize);
        return (int) Math.min(Integer.MAX_VALUE, 15L + length + 8L * blocks);
    }

    @Override
    void compress(ChannelHandlerContext ctx, ByteBuf in, ByteBuf out) {
        if (contentHash == null) {
            header(out);
        }
        while (in.isReadable()) {
            int n = Math.min(in.readableBytes(), maxBlockSize);
            hashContent(in, n);
            ByteBuffer src = in.nioBuffer(in.readerIndex(), n);
            out.ensureWritable(8 + lz4.maxCompressedLength(n));
            int sizeAt = out.writerIndex();
            int dataAt = sizeAt + 4;
            int room = out.capacity() - dataAt;
            ByteBuffer dst = out.nioBuffer(dataAt, room);
            // lz4-java takes offsets from the start of each ByteBuffer, not from its position.
            int size = lz4.compress(src, src.position(), n, dst, dst.position(), room);
            int field;
            if (size < n) {
                field = size;
            } else {
                // Incompressible: stored as it is, which the decoder only copies.
                out.setBytes(dataAt, in, in.readerIndex(), n);
                size = n;
                field = n | Lz4Frame.STORED;
            }
            out.setIntLE(sizeAt, field);
            out.writerIndex(dataAt + size);
            if (blockChecksums) {
                out.writeIntLE(Lz4Frame.xxh32(xxhash, out, dataAt, size));
            }
            in.skipBytes(n);
        }
    }

    private void header(ByteBuf out) {
        contentHash = XXHashFactory.fastestInstance().newStreamingHash32(0);
        int flg = Lz4Frame.FLG_VERSION | Lz4Frame.FLG_BLOCK_INDEPENDENCE | Lz4Frame.FLG_CONTENT_CHECKSUM
                | (blockChecksums ? Lz4Frame.FLG_BLOCK_CHECKSUM : 0);
        int bd = Lz4Frame.blockSizeCode(maxBlockSize) << 4;
        out.ensureWritable(7);
        out.writeIntLE(Lz4Frame.MAGIC);
        int at = out.writerIndex();
        out.writeByte(flg);
        out.writeByte(bd);
        out.writeByte((Lz4Frame.xxh32(xxhash, out, at, 2) >>> 8) & 0xff);
    }

    private void hashContent(ByteBuf in, int n) {
        if (in.hasArray()) {
            contentHash.update(in.array(), in.arrayOffset() + in.readerIndex(), n);
            return;
        }
        if (scratch == null) {
            scratch = new byte[Math.min(maxBlockSize, 64 * 1024)];
        }
        for (int done = 0; done < n; ) {
            int k = Math.min(scratch.length, n - done);
            in.getBytes(in.readerIndex() + done, scratch, 0, k);
            contentHash.update(scratch, 0, k);
            done += k;
        }
    }

    @Override
    void end(ByteBuf out) {
        if (contentHash == null) {
            header(out); // an empty frame is still a frame: the peer sees where the stream ends
        }
        out.writeIntLE(0);
        out.writeIntLE(contentHash.getValue());
    }

    @Override
    void release() {
        if (contentHash != null) {
            contentHash.close();
            contentHash = null;
        }
        scratch = null;
    }
}
