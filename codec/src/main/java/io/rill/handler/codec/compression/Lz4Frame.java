package io.rill.handler.codec.compression;

/**
 * The constants of the LZ4 frame format (lz4 {@code doc/lz4_Frame_format.md}, v1.6.x), shared by
 * {@link Lz4FrameEncoder} and {@link Lz4FrameDecoder}. All integers are little-endian.
 *
 * <pre>
 * frame      = magic 0x184D2204 | descriptor | block* | EndMark (4 zero bytes) | [content checksum]
 * descriptor = FLG | BD | [content size, 8] | [dictionary id, 4] | HC
 *   FLG bits: 7-6 version (01), 5 blocks independent, 4 block checksums, 3 content size,
 *             2 content checksum, 1 reserved (0), 0 dictionary id
 *   BD bits:  7 reserved (0), 6-4 maximum block size (4: 64 KiB, 5: 256 KiB, 6: 1 MiB, 7: 4 MiB), 3-0 reserved (0)
 *   HC:       second byte of xxh32(FLG .. dictionary id, seed 0)
 * block      = size (4; high bit set: stored uncompressed) | data | [xxh32 of data, 4]
 * content checksum = xxh32 of all the frame's decompressed bytes, seed 0
 * skippable frame  = magic 0x184D2A50..5F | size (4) | size bytes, skipped
 * </pre>
 */
final class Lz4Frame {

    static final int MAGIC = 0x184D2204;
    static final int SKIPPABLE_MAGIC = 0x184D2A50;
    static final int SKIPPABLE_MASK = 0xFFFFFFF0;

    static final int FLG_VERSION = 0x40;
    static final int FLG_BLOCK_INDEPENDENCE = 0x20;
    static final int FLG_BLOCK_CHECKSUM = 0x10;
    static final int FLG_CONTENT_SIZE = 0x08;
    static final int FLG_CONTENT_CHECKSUM = 0x04;
    static final int FLG_RESERVED = 0x02;
    static final int FLG_DICTIONARY_ID = 0x01;
    /** A block's size field with this bit set: the block is stored uncompressed. */
    static final int STORED = 0x80000000;

    /** Block maximum sizes 64 KiB .. 4 MiB, by the code in BD's bits 6-4 (4..7). */
    static int maxBlockSize(int code) {
        return 1 << (2 * code + 8);
    }

    /** The BD code of a maximum block size, or -1 if it is not one of the four. */
    static int blockSizeCode(int maxBlockSize) {
        for (int code = 4; code <= 7; code++) {
            if (maxBlockSize(code) == maxBlockSize) {
                return code;
            }
        }
        return -1;
    }

    /** xxh32 (seed 0) of {@code length} bytes of {@code buf} from {@code index}. */
    static int xxh32(net.jpountz.xxhash.XXHash32 hash, io.rill.buffer.ByteBuf buf, int index, int length) {
        if (buf.hasArray()) {
            return hash.hash(buf.array(), buf.arrayOffset() + index, length, 0);
        }
        // lz4-java takes offsets from the start of the ByteBuffer, not from its position.
        java.nio.ByteBuffer b = buf.nioBuffer(index, length);
        return hash.hash(b, b.position(), length, 0);
    }

    private Lz4Frame() {
    }
}
