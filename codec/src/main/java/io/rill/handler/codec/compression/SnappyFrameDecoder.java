package io.rill.handler.codec.compression;

import java.io.IOException;
import java.util.zip.CRC32C;

import org.xerial.snappy.Snappy;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.ChannelHandlerContext;

/**
 * Decompresses a stream in the Snappy framing format (see {@link SnappyFraming}) with snappy-java
 * ({@code org.xerial.snappy:snappy-java}, optional: see {@link CompressionLibrary}). Each data
 * chunk's masked CRC-32C is verified; streams may be concatenated (the identifier may repeat).
 *
 * <p><b>Bounded.</b> A data chunk is at most 64 KiB once decompressed (its header says how much
 * before anything is decoded) and its compressed form is at most snappy's bound for 64 KiB, so
 * the decoder holds at most one chunk; skippable chunks (up to 16 MiB) are skipped as they arrive,
 * never buffered. Output counts against {@code maxDecompressedBytes} and {@code maxRatio} as in
 * {@link ZlibDecoder} (docs/security-cases.md C-06, C-07).
 */
public class SnappyFrameDecoder extends BoundedDecompressor {

    private final boolean verifyChecksums;
    private final CRC32C crc = new CRC32C();
    /** The stream identifier was seen: data chunks may follow. */
    private boolean started;
    /** Bytes of a skippable chunk still to drop as they arrive. */
    private int skipping;
    /** Where compressed input that has no array of its own is copied for the library. */
    private byte[] scratch;

    /** Checksums verified, the default bounds of {@link ZlibDecoder}. */
    public SnappyFrameDecoder() {
        this(ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, ZlibDecoder.DEFAULT_MAX_RATIO, true);
    }

    /**
     * A stream with the given bounds.
     *
     * @param maxDecompressedBytes the stream fails once its output would exceed this
     * @param maxRatio             output bytes allowed per input byte past the first 64 KiB; 0 for no limit
     * @param verifyChecksums      whether each chunk's CRC-32C is checked
     * @throws IllegalStateException    if snappy-java is not available, naming the jar
     * @throws IllegalArgumentException if a bound is out of range
     */
    public SnappyFrameDecoder(long maxDecompressedBytes, int maxRatio, boolean verifyChecksums) {
        super("snappy", maxDecompressedBytes, maxRatio);
        CompressionLibrary.SNAPPY.ensureAvailable();
        this.verifyChecksums = verifyChecksums;
    }

    @Override
    void decompress(ChannelHandlerContext ctx, ByteBuf in) {
        for (;;) {
            if (skipping > 0) {
                int n = Math.min(skipping, in.readableBytes());
                in.skipBytes(n);
                consumed(n);
                skipping -= n;
                if (skipping > 0) {
                    return;
                }
            }
            if (in.readableBytes() < 4) {
                return;
            }
            int at = in.readerIndex();
            int type = in.getUnsignedByte(at);
            int length = in.getUnsignedMediumLE(at + 1);
            if (type == SnappyFraming.STREAM_IDENTIFIER) {
                if (length != 6) {
                    throw new DecompressionException("bad snappy stream identifier: length " + length + " (expected 6)");
                }
                if (in.readableBytes() < 10) {
                    return;
                }
                if (!isIdentifier(in, at)) {
                    throw new DecompressionException("bad snappy stream identifier: "
                            + ByteBufUtil.hexDump(in, at, 10) + " (expected ff060000734e61507059)");
                }
                in.skipBytes(10);
                consumed(10);
                started = true;
                continue;
            }
            if (!started) {
                throw new DecompressionException(String.format(
                        "not a snappy framed stream: it starts with chunk type 0x%02x, not the stream identifier 0xff", type));
            }
            if (type == SnappyFraming.PADDING || type >= SnappyFraming.FIRST_SKIPPABLE) {
                in.skipBytes(4);
                consumed(4);
                skipping = length;
                continue;
            }
            if (type != SnappyFraming.COMPRESSED && type != SnappyFraming.UNCOMPRESSED) {
                throw new DecompressionException(String.format(
                        "reserved unskippable snappy chunk type 0x%02x", type));
            }
            int max = type == SnappyFraming.COMPRESSED ? SnappyFraming.MAX_COMPRESSED_CHUNK : SnappyFraming.MAX_DATA + 4;
            if (length < 4 || length > max) {
                throw new DecompressionException("snappy " + (type == 0 ? "compressed" : "uncompressed")
                        + " chunk of " + length + " bytes (expected: 4.." + max + ")");
            }
            if (in.readableBytes() < 4 + length) {
                return;
            }
            ByteBuf chunk = type == SnappyFraming.COMPRESSED ? uncompress(ctx, in, at + 8, length - 4)
                    : copy(ctx, in, at + 8, length - 4);
            int expected = in.getIntLE(at + 4);
            in.skipBytes(4 + length);
            consumed(4 + length);
            if (verifyChecksums) {
                verify(chunk, expected);
            }
            if (!emit(ctx, chunk, in.isReadable())) {
                return;
            }
        }
    }

    private ByteBuf uncompress(ChannelHandlerContext ctx, ByteBuf in, int from, int n) {
        if (in.hasArray()) {
            return uncompress(ctx, in.array(), in.arrayOffset() + from, n);
        }
        if (in.isDirect() && in.nioBufferCount() == 1) {
            // Direct input (what a socket reads into) goes to the library as it is: no copy, no scratch array.
            java.nio.ByteBuffer src = in.nioBuffer(from, n);
            int size = uncompressedLength(src);
            ByteBuf out = ctx.alloc().directBuffer(Math.max(size, 1));
            try {
                if (size > 0) {
                    int got = Snappy.uncompress(src, out.nioBuffer(0, size));
                    if (got != size) {
                        throw new DecompressionException("corrupt snappy chunk: " + got + " bytes out, " + size + " announced");
                    }
                    out.writerIndex(size);
                }
                return out;
            } catch (IOException e) {
                out.release();
                throw new DecompressionException("corrupt snappy chunk: " + e.getMessage(), e);
            } catch (RuntimeException e) {
                out.release();
                throw e;
            }
        }
        if (scratch == null) {
            scratch = new byte[SnappyFraming.MAX_COMPRESSED_CHUNK];
        }
        in.getBytes(from, scratch, 0, n);
        return uncompress(ctx, scratch, 0, n);
    }

    private static int uncompressedLength(java.nio.ByteBuffer src) {
        long size = 0;
        int at = src.position();
        int n = src.remaining();
        for (int i = 0; ; i++) {
            if (i == n || i == 5) {
                throw new DecompressionException("corrupt snappy chunk: its length varint "
                        + (i == n ? "is cut short" : "is longer than 5 bytes"));
            }
            int b = src.get(at + i);
            size |= (long) (b & 0x7f) << (7 * i);
            if (b >= 0) {
                break;
            }
        }
        if (size > SnappyFraming.MAX_DATA) {
            throw new DecompressionException("snappy chunk decompresses to " + size
                    + " bytes, more than the framing format's 65536");
        }
        return (int) size;
    }

    private ByteBuf uncompress(ChannelHandlerContext ctx, byte[] src, int srcOff, int n) {
        // The block starts with its length: read here, the output is sized (and bounded) before the library runs.
        int size = uncompressedLength(src, srcOff, n);
        ByteBuf out = ctx.alloc().heapBuffer(Math.max(size, 1));
        try {
            if (size > 0) {
                int got = Snappy.uncompress(src, srcOff, n, out.array(), out.arrayOffset() + out.writerIndex());
                if (got != size) {
                    throw new DecompressionException("corrupt snappy chunk: " + got + " bytes out, " + size + " announced");
                }
                out.writerIndex(size);
            }
            return out;
        } catch (IOException e) {
            out.release();
            throw new DecompressionException("corrupt snappy chunk: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** The varint that opens a snappy block, checked against the framing format's 64 KiB. */
    private static int uncompressedLength(byte[] src, int off, int n) {
        long size = 0;
        for (int i = 0; ; i++) {
            if (i == n || i == 5) {
                throw new DecompressionException("corrupt snappy chunk: its length varint "
                        + (i == n ? "is cut short" : "is longer than 5 bytes"));
            }
            int b = src[off + i];
            size |= (long) (b & 0x7f) << (7 * i);
            if (b >= 0) {
                break;
            }
        }
        if (size > SnappyFraming.MAX_DATA) {
            throw new DecompressionException("snappy chunk decompresses to " + size
                    + " bytes, more than the framing format's 65536");
        }
        return (int) size;
    }

    private static boolean isIdentifier(ByteBuf in, int at) {
        for (int i = 4; i < 10; i++) {
            if (in.getByte(at + i) != SnappyFraming.IDENTIFIER_CHUNK[i]) {
                return false;
            }
        }
        return true;
    }

    private static ByteBuf copy(ChannelHandlerContext ctx, ByteBuf in, int from, int n) {
        ByteBuf out = ctx.alloc().heapBuffer(Math.max(n, 1));
        out.writeBytes(in, from, n);
        return out;
    }

    private void verify(ByteBuf chunk, int expected) {
        crc.reset();
        crc.update(chunk.nioBuffer(chunk.readerIndex(), chunk.readableBytes()));
        int actual = SnappyFraming.maskedCrc32c(crc);
        if (actual != expected) {
            chunk.release();
            throw new DecompressionException(String.format(
                    "snappy chunk checksum mismatch: masked CRC-32C 0x%08x, the chunk says 0x%08x", actual, expected));
        }
    }

    @Override
    boolean inStream() {
        return skipping > 0;
    }

    @Override
    void release() {
        scratch = null;
    }
}
