package io.rill.handler.codec.compression;

import java.util.zip.CRC32;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;

/**
 * Parses a gzip member header (RFC 1952 §2.3) in place, without consuming it until it is whole.
 *
 * <pre>
 *   +----+----+----+-----+---+---+---+---+-----+----+
 *   | 1f | 8b | CM | FLG |     MTIME     | XFL | OS |   CM = 8 (deflate)
 *   +----+----+----+-----+---+---+---+---+-----+----+
 *   FLG bit 2 FEXTRA: 2-byte little-endian XLEN, then XLEN bytes
 *       bit 3 FNAME:    NUL-terminated file name
 *       bit 4 FCOMMENT: NUL-terminated comment
 *       bit 1 FHCRC:    2 bytes, the low 16 bits of the CRC-32 of the header so far
 *       bits 5-7 reserved, must be zero
 * </pre>
 */
final class GzipHeader {

    /** Longest header accepted (a full 64 KiB extra field fits): a name or comment may not make us buffer without bound. */
    static final int MAX_HEADER_LENGTH = 128 * 1024;

    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int RESERVED = 0xe0;

    private GzipHeader() {
    }

    /**
     * The length of the header starting at {@code in}'s reader index, or -1 if it has not fully
     * arrived. Throws on a header that is not gzip, uses reserved bits, fails its CRC or is too long.
     */
    static int length(ByteBuf in) {
        int start = in.readerIndex();
        int available = in.readableBytes();
        if (available < 10) {
            checkMagic(in, start, available);
            return -1;
        }
        checkMagic(in, start, 10);
        int flags = in.getUnsignedByte(start + 3);
        if ((flags & RESERVED) != 0) {
            throw new DecompressionException(String.format("gzip header uses reserved flag bits: 0x%02x", flags));
        }
        int end = start + 10;
        if ((flags & FEXTRA) != 0) {
            if (in.writerIndex() - end < 2) {
                return incomplete(available);
            }
            end += 2 + in.getUnsignedShortLE(end);
        }
        for (int flag : new int[] {FNAME, FCOMMENT}) {
            if ((flags & flag) != 0) {
                int nul = end < in.writerIndex() ? in.indexOf(end, in.writerIndex(), (byte) 0) : -1;
                if (nul < 0) {
                    return incomplete(available);
                }
                end = nul + 1;
            }
        }
        if ((flags & FHCRC) != 0) {
            end += 2;
        }
        if (end - start > MAX_HEADER_LENGTH) {
            throw tooLong(end - start);
        }
        if (end > in.writerIndex()) {
            return -1;
        }
        if ((flags & FHCRC) != 0) {
            checkHeaderCrc(in, start, end - 2);
        }
        return end - start;
    }

    private static void checkMagic(ByteBuf in, int start, int available) {
        if (available >= 1 && in.getUnsignedByte(start) != 0x1f
                || available >= 2 && in.getUnsignedByte(start + 1) != 0x8b) {
            throw new DecompressionException("not gzip: the stream starts with "
                    + ByteBufUtil.hexDump(in, start, Math.min(available, 2)) + ", not 1f8b");
        }
        if (available >= 3 && in.getUnsignedByte(start + 2) != 8) {
            throw new DecompressionException("unsupported gzip compression method " + in.getUnsignedByte(start + 2)
                    + " (expected: 8, deflate)");
        }
    }

    private static void checkHeaderCrc(ByteBuf in, int start, int crcIndex) {
        CRC32 crc = new CRC32();
        crc.update(in.nioBuffer(start, crcIndex - start));
        int expected = in.getUnsignedShortLE(crcIndex);
        int actual = (int) crc.getValue() & 0xffff;
        if (expected != actual) {
            throw new DecompressionException(String.format("gzip header CRC mismatch: header says 0x%04x, computed 0x%04x",
                    expected, actual));
        }
    }

    /** An unfinished header must still fit the bound, or a peer could make us buffer a name forever. */
    private static int incomplete(int available) {
        if (available > MAX_HEADER_LENGTH) {
            throw tooLong(available);
        }
        return -1;
    }

    private static DecompressionException tooLong(int length) {
        return new DecompressionException("gzip header of " + length + "+ bytes exceeds the maximum of "
                + MAX_HEADER_LENGTH);
    }
}
