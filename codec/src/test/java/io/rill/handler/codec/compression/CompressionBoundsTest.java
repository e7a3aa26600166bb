package io.rill.handler.codec.compression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * The bounds of the streaming decoders that no round trip shows: the zstd window cap
 * (docs/security-cases.md C-06) and the pause while the channel is not writable, for every
 * {@link BoundedDecompressor}.
 */
class CompressionBoundsTest {

    /** Echoes each chunk into the outbound buffer without flushing: a peer that does not read. */
    private static final class Sink implements ChannelHandler {
        long bytes;
        int chunks;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            bytes += b.readableBytes();
            chunks++;
            ctx.write(b);
        }
    }

    private static byte[] json(int bytes) {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(11);
        while (sb.length() < bytes) {
            sb.append("{\"id\":").append(r.nextInt(100000)).append(",\"tag\":\"t").append(r.nextInt(50)).append("\"},\n");
        }
        return sb.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] compress(CompressionCodecTest.Format f, byte[] data) {
        EmbeddedChannel ch = new EmbeddedChannel(f.encoder.get());
        ch.writeOutbound(Unpooled.wrappedBuffer(data));
        ch.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @EnumSource(CompressionCodecTest.Format.class)
    void decodingPausesWhileTheChannelIsNotWritableAndResumesWhenItDrains(CompressionCodecTest.Format f) {
        byte[] data = json(2 << 20);
        byte[] wire = compress(f, data);
        Sink sink = new Sink();
        EmbeddedChannel ch = new EmbeddedChannel(f.decoder.get(), sink);
        ch.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(8 * 1024, 16 * 1024));

        ch.writeInbound(ch.alloc().buffer(wire.length).writeBytes(wire));
        assertFalse(ch.isWritable());
        int first = sink.chunks;
        assertTrue(first <= 2, f + ": " + first + " chunks decoded into a channel that is not writable");
        assertTrue(sink.bytes < data.length / 4, f + ": " + sink.bytes + " bytes decoded before pausing");
        assertFalse(ch.config().isAutoRead(), "reading stopped with decoding");

        int rounds = 0;
        while (sink.bytes < data.length) {
            long before = sink.bytes;
            ch.flush(); // the peer took the answers: writable again, and the decoder resumes in a task
            ch.releaseOutbound();
            ch.runPendingTasks();
            assertTrue(sink.bytes > before, f + ": no progress in round " + rounds);
            assertTrue(sink.bytes - before <= 2L * BoundedDecompressor.CHUNK_SIZE,
                    f + ": " + (sink.bytes - before) + " bytes decoded in one writable spell");
            rounds++;
        }
        assertEquals(data.length, sink.bytes);
        ch.flush();
        ch.releaseOutbound();
        ch.runPendingTasks();
        assertTrue(ch.config().isAutoRead(), "reading resumed");
        assertFalse(ch.finish());
    }

    /** A frame header asking for a 2^{@code windowLog} window, then one raw block of one byte. */
    private static byte[] zstdFrameWithWindow(int windowLog) {
        int exponent = windowLog - 10;
        return new byte[] {
            0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, // magic
            0x00,                                // no content size, not single-segment: the window descriptor follows
            (byte) (exponent << 3),              // window = 2^(10 + exponent), mantissa 0
            0x09, 0x00, 0x00,                    // last block, raw, 1 byte
            'a',
        };
    }

    @Test
    void c06_zstdRefusesAFrameWhoseWindowExceedsEightMiBBeforeAllocatingIt() {
        // 2^23 is allowed: the one byte comes out.
        EmbeddedChannel ok = new EmbeddedChannel(new ZstdDecoder());
        ok.writeInbound(Unpooled.wrappedBuffer(zstdFrameWithWindow(23)));
        ByteBuf a = ok.readInbound();
        assertEquals("a", a.toString(StandardCharsets.US_ASCII));
        a.release();
        assertFalse(ok.finish());

        Runtime rt = Runtime.getRuntime();
        for (int windowLog : new int[] {24, 27, 31}) {
            EmbeddedChannel ch = new EmbeddedChannel(new ZstdDecoder());
            long before = rt.totalMemory() - rt.freeMemory();
            DecompressionException e = assertThrows(DecompressionException.class,
                    () -> ch.writeInbound(Unpooled.wrappedBuffer(zstdFrameWithWindow(windowLog))));
            assertTrue(e.getMessage().contains("corrupt zstd data") && e.getMessage().toLowerCase().contains("memory"),
                    e.getMessage());
            assertTrue(rt.totalMemory() - rt.freeMemory() - before < 4 << 20, "heap grew refusing it");
            ch.finishAndReleaseAll();
        }
        // A decoder configured for larger windows takes the same frame.
        EmbeddedChannel wide = new EmbeddedChannel(new ZstdDecoder(1 << 20, 0, 24));
        wide.writeInbound(Unpooled.wrappedBuffer(zstdFrameWithWindow(24)));
        ByteBuf b = wide.readInbound();
        assertEquals(1, b.readableBytes());
        b.release();
        assertFalse(wide.finish());
    }
}
