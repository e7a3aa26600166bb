package io.rill.handler.codec.compression;

import java.nio.ByteBuffer;

import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.StreamingXXHash32;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;

/**
 * Decompresses a stream of LZ4 frames (see {@link Lz4Frame}) with lz4-java ({@code at.yawk.lz4:lz4-java},
 * optional: see {@link CompressionLibrary}). Frames may follow one another, skippable frames are
 * skipped; the header checksum is always verified, block and content checksums when the frame
 * carries them, the content size when the frame announces it. Frames whose blocks depend on one
 * another (FLG bit 5 clear: the lz4 tool's {@code -BD}, Python's {@code lz4.frame} by default) and frames that need a dictionary are
 * refused: lz4-java decodes independent blocks only.
 *
 * <p><b>Bounded.</b> The decoder holds at most one block (the frame's maximum, at most 4 MiB,
 * compressed and decoded) and passes it downstream in chunks of at most 64 KiB, each counted
 * against {@code maxDecompressedBytes} and {@code maxRatio} as in {@link ZlibDecoder}; an announced
 * content size over the cap fails before any block is decoded (docs/security-cases.md C-06, C-07).
 */
public class Lz4FrameDecoder extends BoundedDecompressor {

    private enum State { MAGIC, DESCRIPTOR, BLOCK, CONTENT_CHECKSUM, SKIP }

    // Set after the availability check: a field initializer would fail first, without naming the jar.
    private final LZ4SafeDecompressor lz4;
    private final XXHash32 xxhash;
    private State state = State.MAGIC;
    /** The current frame's FLG byte. */
    private int flags;
    private int maxBlockSize;
    /** The content size the frame announced, or -1. */
    private long contentSize;
    /** Decompressed bytes of the current frame so far. */
    private long frameOut;
    /** xxh32 of the current frame's content; null when the frame has no content checksum. */
    private StreamingXXHash32 contentHash;
    /** Bytes of a skippable frame still to drop. */
    private long skipping;
    /** A decoded block not yet passed on, from its reader index. */
    private ByteBuf pending;

    /** The default bounds of {@link ZlibDecoder}. */
    public Lz4FrameDecoder() {
        this(ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, ZlibDecoder.DEFAULT_MAX_RATIO);
    }

    /**
     * A stream with the given bounds.
     *
     * @param maxDecompressedBytes the stream fails once its output would exceed this
     * @param maxRatio             output bytes allowed per input byte past the first 64 KiB; 0 for no limit
     * @throws IllegalStateException    if lz4-java is not available, naming the jar
     * @throws IllegalArgumentException if a bound is out of range
     */
    public Lz4FrameDecoder(long maxDecompressedBytes, int maxRatio) {
        super("lz4", maxDecompressedBytes, maxRatio);
        CompressionLibrary.LZ4.ensureAvailable();
        lz4 = LZ4Factory.fastestInstance().safeDecompressor();
        xxhash = XXHashFactory.fastestInstance().hash32();
    }

    @Override
    void decompress(ChannelHandlerContext ctx, ByteBuf in) {
        for (;;) {
            if (pending != null && !passOn(ctx, in)) {
                return;
            }
            boolean progress = switch (state) {
                case MAGIC -> magic(in);
                case DESCRIPTOR -> descriptor(in);
                case BLOCK -> block(ctx, in);
                case CONTENT_CHECKSUM -> contentChecksum(in);
                case SKIP -> skip(in);
            };
            if (!progress) {
                return;
            }
        }
    }

    private boolean magic(ByteBuf in) {
        if (in.readableBytes() < 4) {
            return false;
        }
        int magic = in.getIntLE(in.readerIndex());
        if (magic == Lz4Frame.MAGIC) {
            take(in, 4);
            state = State.DESCRIPTOR;
            return true;
        }
        if ((magic & Lz4Frame.SKIPPABLE_MASK) == Lz4Frame.SKIPPABLE_MAGIC) {
            if (in.readableBytes() < 8) {
                return false;
            }
            skipping = in.getUnsignedIntLE(in.readerIndex() + 4);
            take(in, 8);
            state = State.SKIP;
            return true;
        }
        throw new DecompressionException(String.format("bad lz4 magic number 0x%08x (expected 0x184d2204"
                + " or a skippable frame's 0x184d2a5?; the legacy format 0x184c2102 is not supported)", magic));
    }

    private boolean descriptor(ByteBuf in) {
        if (in.readableBytes() < 2) {
            return false;
        }
        int at = in.readerIndex();
        int flg = in.getUnsignedByte(at);
        int bd = in.getUnsignedByte(at + 1);
        if ((flg & 0xc0) != Lz4Frame.FLG_VERSION) {
            throw new DecompressionException("lz4 frame version " + (flg >>> 6) + " (expected 1)");
        }
        if ((flg & Lz4Frame.FLG_RESERVED) != 0 || (bd & 0x8f) != 0) {
            throw new DecompressionException(String.format("lz4 frame descriptor sets reserved bits: FLG 0x%02x, BD 0x%02x", flg, bd));
        }
        int code = (bd >>> 4) & 7;
        if (code < 4) {
            throw new DecompressionException("lz4 frame's maximum block size code " + code + " (expected 4..7)");
        }
        int length = 2 + ((flg & Lz4Frame.FLG_CONTENT_SIZE) != 0 ? 8 : 0) + ((flg & Lz4Frame.FLG_DICTIONARY_ID) != 0 ? 4 : 0);
        if (in.readableBytes() < length + 1) {
            return false;
        }
        int expected = in.getUnsignedByte(at + length);
        int actual = (Lz4Frame.xxh32(xxhash, in, at, length) >>> 8) & 0xff;
        if (actual != expected) {
            throw new DecompressionException(String.format(
                    "lz4 frame descriptor checksum mismatch: 0x%02x, the frame says 0x%02x", actual, expected));
        }
        if ((flg & Lz4Frame.FLG_DICTIONARY_ID) != 0) {
            throw new DecompressionException("lz4 frame needs dictionary " + Integer.toUnsignedString(in.getIntLE(at + length - 4))
                    + "; dictionaries are not supported");
        }
        if ((flg & Lz4Frame.FLG_BLOCK_INDEPENDENCE) == 0) {
            throw new DecompressionException("lz4 frame with linked blocks (FLG bit 5 clear) is not supported;"
                    + " the sender must make blocks independent");
        }
        contentSize = -1;
        if ((flg & Lz4Frame.FLG_CONTENT_SIZE) != 0) {
            contentSize = in.getLongLE(at + 2);
            if (contentSize < 0) {
                throw new DecompressionException("lz4 frame announces " + Long.toUnsignedString(contentSize) + " bytes");
            }
            checkAnnouncedSize(contentSize);
        }
        flags = flg;
        maxBlockSize = Lz4Frame.maxBlockSize(code);
        frameOut = 0;
        if ((flg & Lz4Frame.FLG_CONTENT_CHECKSUM) != 0) {
            if (contentHash == null) {
                contentHash = XXHashFactory.fastestInstance().newStreamingHash32(0);
            } else {
                contentHash.reset();
            }
        }
        take(in, length + 1);
        state = State.BLOCK;
        return true;
    }

    private boolean block(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.readableBytes() < 4) {
            return false;
        }
        int at = in.readerIndex();
        int field = in.getIntLE(at);
        if (field == 0) {
            take(in, 4);
            if ((flags & Lz4Frame.FLG_CONTENT_CHECKSUM) != 0) {
                state = State.CONTENT_CHECKSUM;
            } else {
                endFrame();
            }
            return true;
        }
        boolean stored = (field & Lz4Frame.STORED) != 0;
        int size = field & ~Lz4Frame.STORED;
        if (size > maxBlockSize) {
            throw new DecompressionException("lz4 block of " + size + " bytes, over the frame's maximum block size of "
                    + maxBlockSize);
        }
        boolean checksummed = (flags & Lz4Frame.FLG_BLOCK_CHECKSUM) != 0;
        int length = 4 + size + (checksummed ? 4 : 0);
        if (in.readableBytes() < length) {
            return false;
        }
        if (checksummed) {
            int expected = in.getIntLE(at + 4 + size);
            int actual = Lz4Frame.xxh32(xxhash, in, at + 4, size);
            if (actual != expected) {
                throw new DecompressionException(String.format(
                        "lz4 block checksum mismatch: xxh32 0x%08x, the block says 0x%08x", actual, expected));
            }
        }
        ByteBuf out = ctx.alloc().heapBuffer(stored ? Math.max(size, 1) : maxBlockSize);
        try {
            if (stored) {
                out.writeBytes(in, at + 4, size);
            } else {
                int n;
                try {
                    // lz4-java takes offsets from the start of each ByteBuffer, not from its position.
                    ByteBuffer src = in.nioBuffer(at + 4, size);
                    ByteBuffer dst = out.nioBuffer(0, out.capacity());
                    n = lz4.decompress(src, src.position(), size, dst, dst.position(), maxBlockSize);
                } catch (LZ4Exception e) {
                    throw new DecompressionException("corrupt lz4 block: " + e.getMessage(), e);
                }
                out.writerIndex(n);
            }
            frameOut += out.readableBytes();
            if (contentSize >= 0 && frameOut > contentSize) {
                throw new DecompressionException("lz4 frame holds more than the " + contentSize + " bytes it announced");
            }
            if (contentHash != null && (flags & Lz4Frame.FLG_CONTENT_CHECKSUM) != 0) {
                contentHash.update(out.array(), out.arrayOffset() + out.readerIndex(), out.readableBytes());
            }
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
        take(in, length);
        pending = out;
        return true;
    }

    private boolean contentChecksum(ByteBuf in) {
        if (in.readableBytes() < 4) {
            return false;
        }
        int expected = in.getIntLE(in.readerIndex());
        int actual = contentHash.getValue();
        if (actual != expected) {
            throw new DecompressionException(String.format(
                    "lz4 content checksum mismatch: xxh32 0x%08x, the frame says 0x%08x", actual, expected));
        }
        take(in, 4);
        endFrame();
        return true;
    }

    private boolean skip(ByteBuf in) {
        int n = (int) Math.min(skipping, in.readableBytes());
        take(in, n);
        skipping -= n;
        if (skipping > 0) {
            return false;
        }
        state = State.MAGIC;
        return true;
    }

    private void endFrame() {
        if (contentSize >= 0 && frameOut != contentSize) {
            throw new DecompressionException("lz4 frame holds " + frameOut + " bytes, not the " + contentSize
                    + " it announced");
        }
        state = State.MAGIC;
    }

    private void take(ByteBuf in, int n) {
        in.skipBytes(n);
        consumed(n);
    }

    /** Passes {@link #pending} on in chunks; false if decoding was suspended. */
    private boolean passOn(ChannelHandlerContext ctx, ByteBuf in) {
        while (pending.isReadable()) {
            ByteBuf chunk = pending.readRetainedSlice(Math.min(pending.readableBytes(), nextChunkSize()));
            if (!emit(ctx, chunk, in.isReadable())) {
                return false;
            }
        }
        pending.release();
        pending = null;
        return true;
    }

    @Override
    boolean outputWaiting() {
        return pending != null && pending.isReadable();
    }

    @Override
    boolean inStream() {
        return state != State.MAGIC;
    }

    @Override
    void release() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
        if (contentHash != null) {
            contentHash.close();
            contentHash = null;
        }
    }
}
