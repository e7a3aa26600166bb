package io.rill.handler.codec.compression;

import java.util.zip.CRC32C;

/**
 * The constants of the Snappy framing format (google/snappy {@code framing_format.txt}) and its
 * masked CRC-32C, shared by {@link SnappyFrameEncoder} and {@link SnappyFrameDecoder}.
 *
 * <pre>
 * chunk = type (1 byte) | length (3 bytes, little-endian) | length bytes of data
 *   0xff        stream identifier, data "sNaPpY"; first in the stream, may repeat
 *   0x00        compressed data:   masked CRC-32C of the uncompressed data (4, LE) | snappy block
 *   0x01        uncompressed data: masked CRC-32C (4, LE) | the data
 *   0x02..0x7f  reserved, unskippable: a decoder must fail
 *   0x80..0xfd  reserved, skippable; 0xfe padding: skipped
 * the uncompressed data of one chunk is at most 65536 bytes
 * </pre>
 */
final class SnappyFraming {

    static final int STREAM_IDENTIFIER = 0xff;
    static final int COMPRESSED = 0x00;
    static final int UNCOMPRESSED = 0x01;
    static final int PADDING = 0xfe;
    static final int FIRST_SKIPPABLE = 0x80;
    /** The whole identifier chunk: header (type 0xff, length 6) and "sNaPpY". */
    static final byte[] IDENTIFIER_CHUNK = {(byte) 0xff, 6, 0, 0, 's', 'N', 'a', 'P', 'p', 'Y'};
    /** The most uncompressed bytes one data chunk may carry. */
    static final int MAX_DATA = 65536;
    /** The longest compressed chunk a conforming encoder writes: checksum plus snappy's bound for 64 KiB. */
    static final int MAX_COMPRESSED_CHUNK = 4 + 32 + MAX_DATA + MAX_DATA / 6;

    private SnappyFraming() {
    }

    /** The checksum of the framing format: CRC-32C rotated right by 15 bits plus a constant. */
    static int maskedCrc32c(CRC32C crc) {
        int c = (int) crc.getValue();
        return ((c >>> 15) | (c << 17)) + 0xa282ead8;
    }
}
