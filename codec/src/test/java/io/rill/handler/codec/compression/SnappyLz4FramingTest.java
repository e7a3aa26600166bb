package io.rill.handler.codec.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.function.Supplier;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;

import net.jpountz.xxhash.XXHashFactory;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * The malformed cases of the Snappy framing format and the LZ4 frame format, each with its own
 * {@link DecompressionException} message (docs/security-cases.md C-07), fed whole and byte by byte;
 * round trips of incompressible and large data, which both encoders store uncompressed or split
 * into blocks. The cases every codec shares are in {@link CompressionCodecTest}.
 */
class SnappyLz4FramingTest {

    private static final byte[] SNAPPY_ID = SnappyFraming.IDENTIFIER_CHUNK;

    // ---------------------------------------------------------------- helpers

    private static byte[] encode(ChannelHandler encoder, byte[]... messages) {
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        for (byte[] m : messages) {
            ch.writeOutbound(Unpooled.wrappedBuffer(m));
        }
        ch.finish();
        return drain(ch, false);
    }

    private static byte[] drain(EmbeddedChannel ch, boolean inbound) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = inbound ? ch.readInbound() : ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] decodeWhole(Supplier<ChannelHandler> decoder, byte[] wire) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder.get());
        try {
            // A copy: the decoder owns what it is fed and may move bytes inside it.
            ch.writeInbound(Unpooled.wrappedBuffer(wire.clone()));
            ch.finish();
            return drain(ch, true);
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    private static byte[] decodeByteByByte(Supplier<ChannelHandler> decoder, byte[] wire) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder.get());
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (byte b : wire) {
                ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
                out.writeBytes(drain(ch, true));
            }
            ch.finish();
            out.writeBytes(drain(ch, true));
            return out.toByteArray();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    /** Asserts both ways of feeding fail with a message containing {@code expected}. */
    private static void assertRefused(Supplier<ChannelHandler> decoder, byte[] wire, String expected) {
        DecompressionException whole = assertThrows(DecompressionException.class, () -> decodeWhole(decoder, wire));
        assertTrue(whole.getMessage().contains(expected), whole.getMessage());
        DecompressionException pieces = assertThrows(DecompressionException.class, () -> decodeByteByByte(decoder, wire));
        assertEquals(whole.getMessage(), pieces.getMessage());
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] snappyChunk(int type, byte[] data) {
        return concat(new byte[] {(byte) type, (byte) data.length, (byte) (data.length >>> 8), (byte) (data.length >>> 16)}, data);
    }

    private static byte[] masked(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data);
        int m = SnappyFraming.maskedCrc32c(crc);
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(m).array();
    }

    private static byte[] le32(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    /** A frame header with the given FLG and BD and a correct header checksum. */
    private static byte[] lz4Header(int flg, int bd, byte[] optional) {
        byte[] descriptor = concat(new byte[] {(byte) flg, (byte) bd}, optional);
        int hc = (XXHashFactory.safeInstance().hash32().hash(descriptor, 0, descriptor.length, 0) >>> 8) & 0xff;
        return concat(le32(Lz4Frame.MAGIC), descriptor, new byte[] {(byte) hc});
    }

    private static byte[] incompressible(int n) {
        byte[] b = new byte[n];
        new Random(3).nextBytes(b);
        return b;
    }

    private static byte[] text(int n) {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(5);
        while (sb.length() < n) {
            sb.append("<li class=\"item\">").append(r.nextInt(5000)).append(" — entry</li>\n");
        }
        return sb.substring(0, n).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- round trips

    @Test
    void snappyAndLz4RoundTripIncompressibleAndLargeData() {
        byte[] random = incompressible(300_000);
        byte[] large = text(1_300_000);
        for (Supplier<ChannelHandler[]> pair : java.util.List.<Supplier<ChannelHandler[]>>of(
                () -> new ChannelHandler[] {new SnappyFrameEncoder(), new SnappyFrameDecoder()},
                () -> new ChannelHandler[] {new Lz4FrameEncoder(), new Lz4FrameDecoder()},
                () -> new ChannelHandler[] {new Lz4FrameEncoder(4 << 20, true, false), new Lz4FrameDecoder()},
                () -> new ChannelHandler[] {new Lz4FrameEncoder(256 << 10, true, true), new Lz4FrameDecoder()})) {
            ChannelHandler[] h = pair.get();
            byte[] wire = encode(h[0], random, large);
            assertTrue(wire.length < random.length + large.length / 2, "compressed to " + wire.length);
            assertArrayEquals(concat(random, large), decodeWhole(() -> pair.get()[1], wire));
        }
    }

    @Test
    void emptyStreamsDecodeToNothing() {
        assertEquals(0, decodeWhole(SnappyFrameDecoder::new, encode(new SnappyFrameEncoder())).length);
        byte[] lz4 = encode(new Lz4FrameEncoder());
        assertEquals(15, lz4.length, "magic, descriptor, EndMark, content checksum");
        assertEquals(0, decodeWhole(Lz4FrameDecoder::new, lz4).length);
    }

    @Test
    void snappySkipsPaddingAndSkippableChunksAndAcceptsARepeatedIdentifier() {
        byte[] data = text(1000);
        byte[] wire = concat(SNAPPY_ID, snappyChunk(0xfe, new byte[300]), snappyChunk(0x80, new byte[70_000]),
                SNAPPY_ID, snappyChunk(0x01, concat(masked(data), data)));
        assertArrayEquals(data, decodeWhole(SnappyFrameDecoder::new, wire));
        assertArrayEquals(data, decodeByteByByte(SnappyFrameDecoder::new, wire));
    }

    @Test
    void lz4SkipsSkippableFramesAndReadsConcatenatedFrames() {
        byte[] a = text(5000);
        byte[] b = incompressible(100);
        byte[] wire = concat(encode(new Lz4FrameEncoder(), a), le32(0x184D2A5F), le32(3), new byte[3],
                encode(new Lz4FrameEncoder(), b));
        assertArrayEquals(concat(a, b), decodeWhole(Lz4FrameDecoder::new, wire));
        assertArrayEquals(concat(a, b), decodeByteByByte(Lz4FrameDecoder::new, wire));
    }

    // ---------------------------------------------------------------- snappy malformed (C-07)

    @Test
    void c07_snappyRefusesABadStreamIdentifier() {
        assertRefused(SnappyFrameDecoder::new, new byte[] {(byte) 0xff, 6, 0, 0, 's', 'N', 'a', 'P', 'p', 'X'},
                "bad snappy stream identifier");
        assertRefused(SnappyFrameDecoder::new, new byte[] {(byte) 0xff, 7, 0, 0, 's', 'N', 'a', 'P', 'p', 'Y', 0},
                "bad snappy stream identifier: length 7");
        byte[] data = text(10);
        assertRefused(SnappyFrameDecoder::new, snappyChunk(0x01, concat(masked(data), data)),
                "not a snappy framed stream");
    }

    @Test
    void c07_snappyRefusesAReservedUnskippableChunk() {
        assertRefused(SnappyFrameDecoder::new, concat(SNAPPY_ID, snappyChunk(0x02, new byte[5])),
                "reserved unskippable snappy chunk type 0x02");
        assertRefused(SnappyFrameDecoder::new, concat(SNAPPY_ID, snappyChunk(0x7f, new byte[0])),
                "reserved unskippable snappy chunk type 0x7f");
    }

    @Test
    void c07_snappyRefusesABadChecksumAndAnOversizedChunk() {
        byte[] data = text(2000);
        byte[] bad = masked(data);
        bad[0] ^= 1;
        assertRefused(SnappyFrameDecoder::new, concat(SNAPPY_ID, snappyChunk(0x01, concat(bad, data))),
                "snappy chunk checksum mismatch");
        byte[] wire = encode(new SnappyFrameEncoder(), data);
        wire[14] ^= 1; // the compressed chunk's checksum
        assertRefused(SnappyFrameDecoder::new, wire, "snappy chunk checksum mismatch");
        // Refused from its header, before 65 KiB of it is buffered.
        byte[] header = concat(SNAPPY_ID, new byte[] {1, 5, 0, 1});
        assertRefused(SnappyFrameDecoder::new, header, "snappy uncompressed chunk of 65541 bytes (expected: 4..65540)");
        // A compressed chunk whose snappy header announces more than 64 KiB.
        byte[] block = {(byte) 0x81, (byte) 0x80, 0x04, 0}; // varint 65537, then nothing
        assertRefused(SnappyFrameDecoder::new, concat(SNAPPY_ID, snappyChunk(0x00, concat(new byte[4], block))),
                "more than the framing format's 65536");
    }

    @Test
    void c07_snappyReportsATruncatedStreamAtClose() {
        byte[] wire = encode(new SnappyFrameEncoder(), text(3000));
        assertRefused(SnappyFrameDecoder::new, java.util.Arrays.copyOf(wire, wire.length - 1), "snappy stream truncated");
        assertRefused(SnappyFrameDecoder::new, concat(SNAPPY_ID, new byte[] {(byte) 0x90, 10, 0, 0, 1, 2}),
                "snappy stream truncated");
    }

    // ---------------------------------------------------------------- lz4 malformed (C-07)

    @Test
    void c07_lz4RefusesABadMagicAndTheLegacyFormat() {
        assertRefused(Lz4FrameDecoder::new, le32(0x184D2205), "bad lz4 magic number 0x184d2205");
        assertRefused(Lz4FrameDecoder::new, concat(le32(0x184C2102), new byte[8]), "bad lz4 magic number 0x184c2102");
    }

    @Test
    void c07_lz4RefusesABadDescriptor() {
        byte[] good = encode(new Lz4FrameEncoder(), text(100));
        byte[] bad = good.clone();
        bad[6] ^= 1;
        assertRefused(Lz4FrameDecoder::new, bad, "lz4 frame descriptor checksum mismatch");
        assertRefused(Lz4FrameDecoder::new, lz4Header(0x80 | 0x20, 0x40, new byte[0]), "lz4 frame version 2");
        assertRefused(Lz4FrameDecoder::new, lz4Header(0x60 | 0x02, 0x40, new byte[0]), "reserved bits");
        assertRefused(Lz4FrameDecoder::new, lz4Header(0x60, 0x30, new byte[0]), "maximum block size code 3");
        assertRefused(Lz4FrameDecoder::new, lz4Header(0x40, 0x40, new byte[0]), "linked blocks");
        assertRefused(Lz4FrameDecoder::new, lz4Header(0x61, 0x40, le32(7)), "needs dictionary 7");
    }

    @Test
    void c07_lz4RefusesABlockOverTheFramesMaximumFromItsSizeField() {
        // 64 KiB frame, a block that says 64 KiB + 1: refused before it is buffered.
        assertRefused(Lz4FrameDecoder::new, concat(lz4Header(0x60, 0x40, new byte[0]), le32(65537)),
                "lz4 block of 65537 bytes, over the frame's maximum block size of 65536");
        assertRefused(Lz4FrameDecoder::new, concat(lz4Header(0x60, 0x40, new byte[0]), le32(0xffffffff)),
                "over the frame's maximum block size");
    }

    @Test
    void c07_lz4RefusesBadChecksumsAndAWrongContentSize() {
        byte[] data = text(3000);
        byte[] wire = encode(new Lz4FrameEncoder(65536, true, false), data);
        byte[] badBlock = wire.clone();
        badBlock[wire.length - 9 - 1] ^= 1; // the last block's checksum, before EndMark and content checksum
        assertRefused(Lz4FrameDecoder::new, badBlock, "lz4 block checksum mismatch");
        byte[] badContent = wire.clone();
        badContent[wire.length - 1] ^= 1;
        assertRefused(Lz4FrameDecoder::new, badContent, "lz4 content checksum mismatch");
        // A stored block in a frame that announces 4 bytes but holds 3; and one that announces more than the cap.
        byte[] size4 = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(4).array();
        byte[] frame = concat(lz4Header(0x68, 0x40, size4), le32(3 | Lz4Frame.STORED), new byte[] {1, 2, 3}, le32(0));
        assertRefused(Lz4FrameDecoder::new, frame, "lz4 frame holds 3 bytes, not the 4 it announced");
        byte[] huge = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 40).array();
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class,
                () -> decodeWhole(Lz4FrameDecoder::new, lz4Header(0x68, 0x40, huge)));
        assertEquals("maxDecompressedBytes", e.limitName());
        // A corrupt compressed block.
        assertRefused(Lz4FrameDecoder::new, concat(lz4Header(0x60, 0x40, new byte[0]), le32(4), new byte[] {(byte) 0xf0, 1, 2, 3}),
                "corrupt lz4 block");
    }

    @Test
    void c07_lz4ReportsATruncatedStreamAtClose() {
        byte[] wire = encode(new Lz4FrameEncoder(), text(3000));
        for (int len : new int[] {2, 4, 6, 7, wire.length - 5, wire.length - 1}) {
            assertRefused(Lz4FrameDecoder::new, java.util.Arrays.copyOf(wire, len), "lz4 stream truncated");
        }
    }
}
