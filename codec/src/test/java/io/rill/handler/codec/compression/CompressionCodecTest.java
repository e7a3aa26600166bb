package io.rill.handler.codec.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.function.Supplier;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * The brotli, zstd, snappy and lz4 codecs through their public API: round trips fed whole, byte by byte,
 * split at every index and in random pieces; corrupt and truncated input; and a real bomb
 * (zeros: 1 GiB for brotli and zstd, 64 MiB for snappy, whose chunks expand at most 21 times, and lz4)
 * that ends in {@link DecompressionLimitException} (docs/security-cases.md C-06). The malformed cases of
 * each framing are in {@link SnappyLz4FramingTest}.
 */
class CompressionCodecTest {

    enum Format {
        BROTLI(BrotliEncoder::new, BrotliDecoder::new, BrotliDecoder::new, 1024, true),
        ZSTD(() -> new ZstdEncoder(1), ZstdDecoder::new, (max, ratio) -> new ZstdDecoder(max, ratio, 23), 1024, true),
        // Snappy expands a chunk at most about 21 times: the ratio bound of 100 never fires, the cap does.
        SNAPPY(SnappyFrameEncoder::new, SnappyFrameDecoder::new, (max, ratio) -> new SnappyFrameDecoder(max, ratio, true), 64, false),
        LZ4(Lz4FrameEncoder::new, Lz4FrameDecoder::new, Lz4FrameDecoder::new, 64, true);

        final Supplier<ChannelHandler> encoder;
        final Supplier<ChannelHandler> decoder;
        final Bounded bounded;
        /** MiB of zeros in the bomb. */
        final int bombMiB;
        /** Whether the format expands enough for the default ratio bound to stop a bomb. */
        final boolean ratioStopsBomb;

        Format(Supplier<ChannelHandler> encoder, Supplier<ChannelHandler> decoder, Bounded bounded, int bombMiB,
               boolean ratioStopsBomb) {
            this.encoder = encoder;
            this.decoder = decoder;
            this.bounded = bounded;
            this.bombMiB = bombMiB;
            this.ratioStopsBomb = ratioStopsBomb;
        }
    }

    interface Bounded {
        ChannelHandler create(long maxDecompressedBytes, int maxRatio);
    }

    private static byte[] json(int bytes) {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(7);
        while (sb.length() < bytes) {
            sb.append("{\"id\":").append(r.nextInt(100000)).append(",\"name\":\"user").append(r.nextInt(1000))
                    .append("\",\"active\":").append(r.nextBoolean()).append("},\n");
        }
        return sb.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] compress(Format f, byte[]... messages) {
        EmbeddedChannel ch = new EmbeddedChannel(f.encoder.get());
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

    /** Feeds {@code wire} cut at {@code cuts} (ascending) and returns what came out. */
    private static byte[] decode(Format f, byte[] wire, int... cuts) {
        EmbeddedChannel ch = new EmbeddedChannel(f.decoder.get());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : wire.length;
            ByteBuf piece = Unpooled.directBuffer(Math.max(1, to - from));
            piece.writeBytes(wire, from, to - from);
            ch.writeInbound(piece);
            out.writeBytes(drain(ch, true));
            from = to;
        }
        ch.finish();
        out.writeBytes(drain(ch, true));
        return out.toByteArray();
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void roundTripsWholeAndInRandomPieces(Format f) {
        byte[] data = json(200_000);
        byte[] wire = compress(f, data, data);
        byte[] twice = new byte[data.length * 2];
        System.arraycopy(data, 0, twice, 0, data.length);
        System.arraycopy(data, 0, twice, data.length, data.length);
        assertArrayEquals(twice, decode(f, wire));
        Random r = new Random(1);
        for (int round = 0; round < 5; round++) {
            int[] cuts = r.ints(20, 1, wire.length).sorted().distinct().toArray();
            assertArrayEquals(twice, decode(f, wire, cuts));
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void decodesSplitAtEveryIndexAndByteByByte(Format f) {
        byte[] data = json(3000);
        byte[] wire = compress(f, data);
        for (int cut = 1; cut < wire.length; cut++) {
            assertArrayEquals(data, decode(f, wire, cut), "split at " + cut);
        }
        int[] everyByte = new int[wire.length - 1];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = i + 1;
        }
        assertArrayEquals(data, decode(f, wire, everyByte));
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void rejectsCorruptInput(Format f) {
        byte[] wire = compress(f, json(5000));
        for (int i = 0; i < wire.length; i += 7) {
            byte[] bad = wire.clone();
            bad[i] ^= 0x5a;
            EmbeddedChannel ch = new EmbeddedChannel(f.decoder.get());
            try {
                ch.writeInbound(Unpooled.wrappedBuffer(bad));
                ch.finish();
            } catch (DecompressionException expected) {
                // the corruption was noticed (a flip in a literal may pass brotli, which has no checksum)
            } finally {
                ch.finishAndReleaseAll();
            }
        }
        byte[] garbage = "this is not compressed at all, not at all".getBytes(StandardCharsets.US_ASCII);
        EmbeddedChannel ch = new EmbeddedChannel(f.decoder.get());
        assertThrows(DecompressionException.class, () -> {
            ch.writeInbound(Unpooled.wrappedBuffer(garbage));
            ch.finish();
        });
        ch.finishAndReleaseAll();
    }

    /** Garbage after a complete stream fails fed whole and byte by byte alike (brotli's fuzz finding, fixed). */
    @ParameterizedTest
    @EnumSource(Format.class)
    void refusesBytesAfterTheEndHoweverTheInputIsCut(Format f) {
        byte[] data = json(2000);
        byte[] stream = compress(f, data);
        byte[] wire = java.util.Arrays.copyOf(stream, stream.length + 9);
        System.arraycopy("garbage!!".getBytes(StandardCharsets.US_ASCII), 0, wire, stream.length, 9);
        assertFails(f, wire);
        assertFails(f, wire, stream.length);
        assertFails(f, wire, stream.length, stream.length + 1);
    }

    private static void assertFails(Format f, byte[] wire, int... cuts) {
        EmbeddedChannel ch = new EmbeddedChannel(f.decoder.get());
        try {
            assertThrows(DecompressionException.class, () -> {
                int from = 0;
                for (int i = 0; i <= cuts.length; i++) {
                    int to = i < cuts.length ? cuts[i] : wire.length;
                    ch.writeInbound(Unpooled.wrappedBuffer(java.util.Arrays.copyOfRange(wire, from, to)));
                    from = to;
                }
                ch.finish();
            });
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void reportsTruncatedInput(Format f) {
        byte[] wire = compress(f, json(5000));
        for (int len : new int[] {1, wire.length / 2, wire.length - 1}) {
            EmbeddedChannel ch = new EmbeddedChannel(f.decoder.get());
            byte[] cut = java.util.Arrays.copyOf(wire, len);
            DecompressionException e = assertThrows(DecompressionException.class, () -> {
                ch.writeInbound(Unpooled.wrappedBuffer(cut));
                ch.finish();
            });
            assertTrue(e.getMessage().contains("truncated") || e.getMessage().contains("corrupt"), e.getMessage());
            ch.finishAndReleaseAll();
        }
    }

    /** Zeros compressed as a peer would send them: the cap ends it, one chunk at a time. */
    @ParameterizedTest
    @EnumSource(Format.class)
    void c06_endsABombOfZerosAtTheCapOneChunkAtATime(Format f) {
        EmbeddedChannel enc = new EmbeddedChannel(f.encoder.get());
        ByteBuf zeros = Unpooled.directBuffer(1 << 20).writeZero(1 << 20);
        for (int i = 0; i < f.bombMiB; i++) {
            enc.writeOutbound(zeros.retainedDuplicate());
        }
        zeros.release();
        enc.finish();
        byte[] bomb = drain(enc, false);
        assertTrue(bomb.length < (long) f.bombMiB << 20 >> 4, f.bombMiB + " MiB of zeros compress to " + bomb.length + " bytes");

        long cap = 16L << 20;
        long[] seen = {0, 0};
        EmbeddedChannel ch = new EmbeddedChannel(f.bounded.create(cap, 0), new ChannelHandler() {
            @Override
            public void channelRead(io.rill.channel.ChannelHandlerContext ctx, Object msg) {
                ByteBuf b = (ByteBuf) msg;
                seen[0] += b.readableBytes();
                seen[1] = Math.max(seen[1], b.readableBytes());
                b.release(); // consumed at once: the decoder never holds more than a chunk
            }
        });
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class,
                () -> ch.writeInbound(Unpooled.wrappedBuffer(bomb)));
        assertEquals("maxDecompressedBytes", e.limitName());
        assertTrue(seen[0] <= cap, "passed on " + seen[0]);
        assertTrue(seen[1] <= BoundedDecompressor.CHUNK_SIZE, "largest chunk " + seen[1]);
        ch.finishAndReleaseAll();

        if (!f.ratioStopsBomb) {
            return;
        }
        // The default ratio bound stops it far earlier.
        EmbeddedChannel ratio = new EmbeddedChannel(f.decoder.get());
        DecompressionLimitException r = assertThrows(DecompressionLimitException.class,
                () -> ratio.writeInbound(Unpooled.wrappedBuffer(bomb)));
        assertEquals("maxRatio", r.limitName());
        ratio.finishAndReleaseAll();
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void dropsEverythingAfterAFailure(Format f) {
        BoundedDecompressor decoder = (BoundedDecompressor) f.decoder.get();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        assertThrows(DecompressionException.class, () -> {
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3}));
            ch.finish();
        });
        assertTrue(decoder.isFailed());
        ch.finishAndReleaseAll();
    }
}
