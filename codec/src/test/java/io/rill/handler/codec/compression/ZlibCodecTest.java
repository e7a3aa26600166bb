package io.rill.handler.codec.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.Cumulator;
import io.rill.handler.codec.DecoderRun;

class ZlibCodecTest {

    private static final Random RANDOM = new Random(0x21b);

    /** Compressible text with some noise, so blocks of every kind appear. */
    private static byte[] sampleText(int size) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < size) {
            sb.append("the quick brown fox ").append(RANDOM.nextInt(1000)).append(" jumps\n");
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    /** Compresses {@code messages} through a ZlibEncoder and ends the stream; returns the wire bytes. */
    private static byte[] encode(ZlibWrapper wrapper, byte[]... messages) {
        ZlibEncoder encoder = new ZlibEncoder(wrapper, 6);
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        for (byte[] m : messages) {
            ch.writeOutbound(ch.alloc().buffer(Math.max(1, m.length)).writeBytes(m));
        }
        assertTrue(encoder.finish().isSuccess());
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
            wire.writeBytes(ByteBufUtil.getBytes(b));
        }
        assertFalse(ch.finish());
        return wire.toByteArray();
    }

    /** All output of one delivery joined into one hex string, exceptions as "!Name" markers. */
    private static String inflate(ZlibWrapper wrapper, long cap, List<Integer> pieces, byte[] wire) {
        List<String> events = DecoderRun.run(() -> new ChannelHandler[] {new ZlibDecoder(wrapper, cap)},
                Cumulator.MERGE, pieces, wire);
        StringBuilder joined = new StringBuilder();
        for (String e : events) {
            joined.append(e.startsWith("!") || e.startsWith("|") ? " " + e + " " : e);
        }
        return joined.toString().trim();
    }

    private static void assertInflatesEveryWay(ZlibWrapper wrapper, byte[] wire, String expected) {
        assertEquals(expected, inflate(wrapper, 1 << 26, List.of(wire.length), wire), "whole");
        List<Integer> bytes = new ArrayList<>();
        for (int i = 0; i < wire.length; i++) {
            bytes.add(1);
        }
        assertEquals(expected, inflate(wrapper, 1 << 26, bytes, wire), "byte by byte");
        Random random = new Random(wire.length);
        for (int r = 0; r < 10; r++) {
            List<Integer> pieces = new ArrayList<>();
            for (int left = wire.length, p; left > 0; left -= p) {
                p = Math.min(left, 1 + random.nextInt(random.nextBoolean() ? 7 : 500));
                pieces.add(p);
            }
            assertEquals(expected, inflate(wrapper, 1 << 26, pieces, wire), "pieces " + pieces);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ZlibWrapper.class, names = {"ZLIB", "GZIP", "NONE"})
    void everyWrapperRoundTripsHoweverTheBytesArrive(ZlibWrapper wrapper) {
        byte[] a = sampleText(3000);
        byte[] b = new byte[200];
        RANDOM.nextBytes(b);
        byte[] c = sampleText(100);
        byte[] wire = encode(wrapper, a, b, new byte[0], c);
        String expected = ByteBufUtil.hexDump(concat(a, b, c)) + " |end";
        assertInflatesEveryWay(wrapper, wire, expected);
        if (wrapper != ZlibWrapper.GZIP) {
            assertInflatesEveryWay(ZlibWrapper.ZLIB_OR_NONE, wire, expected);
        }
    }

    @Test
    void eachMessageIsFlushedSoThePeerCanInflateItAtOnce() {
        EmbeddedChannel encoder = new EmbeddedChannel(new ZlibEncoder(ZlibWrapper.GZIP));
        EmbeddedChannel decoder = new EmbeddedChannel(new ZlibDecoder(ZlibWrapper.GZIP));
        byte[] text = sampleText(500);
        encoder.writeOutbound(encoder.alloc().buffer().writeBytes(text));
        decoder.writeInbound((Object) encoder.readOutbound());
        ByteBuf out = decoder.readInbound();
        assertEquals(ByteBufUtil.hexDump(text), ByteBufUtil.hexDump(out));
        out.release();
        encoder.finishAndReleaseAll();
        // The gzip trailer never came: the end of input reports the stream as truncated.
        assertThrows(DecompressionException.class, decoder::finishAndReleaseAll);
    }

    @Test
    void closingTheChannelEndsTheStreamFirst() {
        EmbeddedChannel ch = new EmbeddedChannel(new ZlibEncoder(ZlibWrapper.GZIP));
        ch.writeOutbound(ch.alloc().buffer().writeBytes(sampleText(50)));
        ch.close();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
            wire.writeBytes(ByteBufUtil.getBytes(b));
        }
        byte[] bytes = wire.toByteArray();
        assertEquals(0x1f, bytes[0]);
        // The trailer's ISIZE is the last 4 bytes, little-endian.
        assertEquals(50, bytes[bytes.length - 4]);
        assertFalse(inflate(ZlibWrapper.GZIP, 1000, List.of(bytes.length), bytes).contains("!"));
    }

    @Test
    void writingAfterTheStreamEndedFails() {
        ZlibEncoder encoder = new ZlibEncoder();
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        encoder.finish();
        assertTrue(encoder.isFinished());
        ch.releaseOutbound();
        assertThrows(io.rill.handler.codec.EncoderException.class,
                () -> ch.writeOutbound(ch.alloc().buffer().writeByte(1)));
        assertFalse(ch.finish());
    }

    @Test
    void gzipFromTheJdkDecodes() throws IOException {
        byte[] text = sampleText(10_000);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(wire)) {
            gz.write(text);
        }
        assertInflatesEveryWay(ZlibWrapper.GZIP, wire.toByteArray(), ByteBufUtil.hexDump(text) + " |end");
    }

    /** A gzip member with every optional header field, built by hand (RFC 1952 §2.3). */
    private static byte[] gzipMember(byte[] data, boolean corruptHeaderCrc) {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0x02 | 0x04 | 0x08 | 0x10, 1, 2, 3, 4, 0, 3});
        h.writeBytes(new byte[] {5, 0, 'A', 'B', 3, 0, 'x'}); // FEXTRA: XLEN 5, one subfield
        h.writeBytes("name.txt\0".getBytes(StandardCharsets.ISO_8859_1));
        h.writeBytes("a comment\0".getBytes(StandardCharsets.ISO_8859_1));
        CRC32 headerCrc = new CRC32();
        headerCrc.update(h.toByteArray());
        int crc16 = (int) headerCrc.getValue() ^ (corruptHeaderCrc ? 1 : 0);
        h.write(crc16);
        h.write(crc16 >>> 8);
        h.writeBytes(rawDeflate(data));
        CRC32 crc = new CRC32();
        crc.update(data);
        writeIntLE(h, (int) crc.getValue());
        writeIntLE(h, data.length);
        return h.toByteArray();
    }

    private static byte[] rawDeflate(byte[] data) {
        Deflater d = new Deflater(6, true);
        d.setInput(data);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    private static void writeIntLE(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }

    @Test
    void gzipHeadersWithNameCommentExtraAndHeaderCrcDecode() {
        byte[] data = sampleText(700);
        assertInflatesEveryWay(ZlibWrapper.GZIP, gzipMember(data, false), ByteBufUtil.hexDump(data) + " |end");
    }

    @Test
    void concatenatedGzipMembersDecodeOneAfterTheOther() {
        byte[] a = sampleText(300);
        byte[] b = sampleText(400);
        assertInflatesEveryWay(ZlibWrapper.GZIP, concat(gzipMember(a, false), gzipMember(b, false)),
                ByteBufUtil.hexDump(concat(a, b)) + " |end");
    }

    @Test
    void gzipIntegrityFailuresAreDecompressionExceptions() {
        byte[] data = sampleText(300);
        byte[] badHeaderCrc = gzipMember(data, true);
        assertTrue(inflate(ZlibWrapper.GZIP, 1 << 20, List.of(badHeaderCrc.length), badHeaderCrc)
                .startsWith("!DecompressionException"));
        byte[] badCrc = gzipMember(data, false);
        badCrc[badCrc.length - 8] ^= 1;
        assertTrue(inflate(ZlibWrapper.GZIP, 1 << 20, List.of(badCrc.length), badCrc).endsWith("!DecompressionException  |end"));
        byte[] badSize = gzipMember(data, false);
        badSize[badSize.length - 1] ^= 1;
        assertTrue(inflate(ZlibWrapper.GZIP, 1 << 20, List.of(badSize.length), badSize).contains("!DecompressionException"));
        byte[] reserved = gzipMember(data, false);
        reserved[3] |= 0x20;
        assertTrue(inflate(ZlibWrapper.GZIP, 1 << 20, List.of(reserved.length), reserved).startsWith("!DecompressionException"));
        byte[] notGzip = "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals("!DecompressionException  |end", inflate(ZlibWrapper.GZIP, 1 << 20, List.of(notGzip.length), notGzip));
    }

    @Test
    void corruptDeflateDataAndTruncatedStreamsFailCleanly() {
        byte[] wire = encode(ZlibWrapper.ZLIB, sampleText(2000));
        byte[] corrupt = wire.clone();
        corrupt[10] ^= (byte) 0xff;
        corrupt[11] ^= (byte) 0xff;
        assertTrue(inflate(ZlibWrapper.ZLIB, 1 << 20, List.of(corrupt.length), corrupt).contains("!DecompressionException"));
        byte[] truncated = Arrays.copyOf(wire, wire.length / 2);
        String events = inflate(ZlibWrapper.ZLIB, 1 << 20, List.of(truncated.length), truncated);
        assertTrue(events.endsWith("!DecompressionException  |end"), events);
    }

    // ---------------------------------------- docs/security-cases.md, cases C-01, C-04, C-05

    private static final long ONE_GIB = 1L << 30;

    /**
     * A DEFLATE stream of 1 GiB of zeros (about 1 MB), built without holding or even deflating
     * 1 GiB: after a full flush the deflater's state is reset, so every further 1 MiB of zeros
     * compresses to the same block, which is repeated.
     */
    private static byte[] bombOfZeros(ZlibWrapper wrapper) {
        Deflater d = new Deflater(9, true);
        byte[] mib = new byte[1 << 20];
        byte[] first = fullFlush(d, mib);
        byte[] block = fullFlush(d, mib);
        assertArrayEquals(block, fullFlush(d, mib), "a full flush resets the deflater, so blocks repeat");
        d.finish();
        byte[] tail = new byte[64];
        int tailLength = d.deflate(tail);
        d.end();
        ByteArrayOutputStream out = new ByteArrayOutputStream(1200 * 1024);
        if (wrapper == ZlibWrapper.ZLIB) {
            out.writeBytes(new byte[] {0x78, (byte) 0xda});
        } else if (wrapper == ZlibWrapper.GZIP) {
            out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, (byte) 0xff});
        }
        out.writeBytes(first);
        for (int i = 1; i < ONE_GIB >> 20; i++) {
            out.writeBytes(block);
        }
        out.write(tail, 0, tailLength);
        if (wrapper == ZlibWrapper.ZLIB) {
            // Adler-32 of n zeros: A stays 1, B = n mod 65521 (RFC 1950 §8.2); big-endian.
            long b = ONE_GIB % 65521;
            int adler = (int) (b << 16 | 1);
            out.writeBytes(new byte[] {(byte) (adler >>> 24), (byte) (adler >>> 16), (byte) (adler >>> 8), (byte) adler});
        } else if (wrapper == ZlibWrapper.GZIP) {
            CRC32 crc = new CRC32();
            for (int i = 0; i < ONE_GIB >> 20; i++) {
                crc.update(mib);
            }
            writeIntLE(out, (int) crc.getValue());
            writeIntLE(out, (int) ONE_GIB);
        }
        return out.toByteArray();
    }

    private static byte[] fullFlush(Deflater d, byte[] input) {
        d.setInput(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        do {
            n = d.deflate(buf, 0, buf.length, Deflater.FULL_FLUSH);
            out.write(buf, 0, n);
        } while (n == buf.length || !d.needsInput());
        return out.toByteArray();
    }

    /** Counts and releases decompressed chunks; remembers the largest and whether the decoder had finished. */
    private static class Sink implements ChannelHandler {
        long bytes;
        int chunks;
        int largest;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            bytes += b.readableBytes();
            chunks++;
            largest = Math.max(largest, b.readableBytes());
            b.release();
        }
    }

    /** Feeds {@code wire} in 64 KiB reads; returns the exception the decoder raised, or null. */
    private static Throwable feed(EmbeddedChannel ch, byte[] wire) {
        Throwable failure = null;
        for (int off = 0; off < wire.length; off += 65536) {
            int n = Math.min(65536, wire.length - off);
            try {
                ch.writeInbound(ch.alloc().buffer(n).writeBytes(wire, off, n));
            } catch (DecompressionException e) {
                assertEquals(null, failure, "reported once");
                failure = e;
            }
        }
        return failure;
    }

    @Test
    void c01_zlibBombOfOneGibZerosFailsCleanlyOnTheSizeCap() {
        byte[] bomb = bombOfZeros(ZlibWrapper.ZLIB);
        assertTrue(bomb.length < 1_200_000, "bomb of " + bomb.length + " bytes");
        Sink sink = new Sink();
        ZlibDecoder decoder = new ZlibDecoder(ZlibWrapper.ZLIB, ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, 0);
        EmbeddedChannel ch = new EmbeddedChannel(decoder, sink);
        Throwable failure = feed(ch, bomb);
        DecompressionLimitException limit = assertInstanceOf(DecompressionLimitException.class, failure);
        assertEquals("maxDecompressedBytes", limit.limitName());
        assertEquals(ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, limit.limit());
        assertTrue(failure.getMessage().contains(String.valueOf(ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES)),
                failure.getMessage());
        assertTrue(sink.bytes <= ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, "passed on " + sink.bytes);
        assertTrue(decoder.isClosed());
        assertFalse(ch.finish()); // nothing buffered, nothing leaked, no second report
    }

    @ParameterizedTest
    @EnumSource(value = ZlibWrapper.class)
    void c05_oneCapForEveryWrapper(ZlibWrapper wrapper) {
        byte[] bomb = bombOfZeros(wrapper == ZlibWrapper.ZLIB_OR_NONE ? ZlibWrapper.NONE : wrapper);
        Sink sink = new Sink();
        long cap = 8L << 20;
        EmbeddedChannel ch = new EmbeddedChannel(new ZlibDecoder(wrapper, cap, 0), sink);
        assertTrue(feed(ch, bomb) instanceof DecompressionException, wrapper.toString());
        assertCappedAt(cap, sink.bytes);
        assertFalse(ch.finish());
    }

    /** Output went through up to the chunk that crossed the cap; that chunk and everything after it did not. */
    private static void assertCappedAt(long cap, long passed) {
        assertTrue(passed <= cap && passed > cap - ZlibDecoder.CHUNK_SIZE, "passed " + passed + " of cap " + cap);
    }

    @Test
    void c05_theCapCountsEveryGzipMemberOfTheStream() {
        byte[] member = gzipMember(new byte[600_000], false);
        Sink sink = new Sink();
        EmbeddedChannel ch = new EmbeddedChannel(new ZlibDecoder(ZlibWrapper.GZIP, 1_000_000, 0), sink);
        assertTrue(feed(ch, concat(member, member)) instanceof DecompressionException);
        assertCappedAt(1_000_000, sink.bytes);
        assertFalse(ch.finish());
    }

    @Test
    void c04_outputGoesDownstreamChunkByChunkWhileOneReadIsStillBeingInflated() {
        // 32 MiB of zeros in one ~32 KB read: the chunks must reach the next handler while the
        // decoder is still inflating, not all at once after it (Netty CVE-2025-58057).
        byte[] wire = encode(ZlibWrapper.ZLIB, new byte[32 << 20]);
        ZlibDecoder decoder = new ZlibDecoder(ZlibWrapper.ZLIB, ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, 0);
        boolean[] firstChunkWhileInflating = new boolean[1];
        Sink sink = new Sink() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (chunks == 0) {
                    firstChunkWhileInflating[0] = !decoder.isClosed();
                }
                super.channelRead(ctx, msg);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(decoder, sink);
        ch.writeInbound(ch.alloc().buffer(wire.length).writeBytes(wire));
        assertTrue(decoder.isClosed(), "the stream ended within the one read");
        assertTrue(firstChunkWhileInflating[0]);
        assertEquals(32 << 20, sink.bytes);
        assertTrue(sink.largest <= ZlibDecoder.CHUNK_SIZE, "largest chunk " + sink.largest);
        assertTrue(sink.chunks >= (32 << 20) / ZlibDecoder.CHUNK_SIZE);
        assertFalse(ch.finish());
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
