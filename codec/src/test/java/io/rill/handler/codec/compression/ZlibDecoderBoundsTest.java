package io.rill.handler.codec.compression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * The decoder's two bounds (size and ratio) and its back-pressure: it inflates no further while
 * what it produced waits in the outbound buffer above the high water mark.
 */
class ZlibDecoderBoundsTest {

    /** The port-unification attack: the same request over and over, which gzip shrinks ~400 times. */
    private static byte[] gzippedRequests(int requests) {
        byte[] request = "GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(wire, 65536)) {
            for (int i = 0; i < requests; i++) {
                gz.write(request);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return wire.toByteArray();
    }

    private static byte[] gzip(byte[] data) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(wire)) {
            gz.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return wire.toByteArray();
    }

    /** Counts and releases what the decoder passes on; with {@code echo}, writes it back unflushed instead. */
    private static final class Sink implements ChannelHandler {
        private final boolean echo;
        long bytes;
        int chunks;

        Sink(boolean echo) {
            this.echo = echo;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            bytes += b.readableBytes();
            chunks++;
            if (echo) {
                ctx.write(b); // the answer, queued until someone flushes: the peer does not read
            } else {
                b.release();
            }
        }
    }

    /** Feeds {@code wire} in 64 KiB reads; returns the failure the decoder reported, or null. */
    private static Throwable feed(EmbeddedChannel ch, byte[] wire) {
        for (int off = 0; off < wire.length; off += 65536) {
            int n = Math.min(65536, wire.length - off);
            try {
                ch.writeInbound(ch.alloc().buffer(n).writeBytes(wire, off, n));
            } catch (DecompressionException e) {
                return e;
            }
        }
        return null;
    }

    @Test
    void aBombIsRejectedByTheRatioBeforeItsFirstChunkGoesDownstream() {
        byte[] bomb = gzippedRequests(4_000_000); // 108 MB of requests
        Sink sink = new Sink(false);
        ZlibDecoder decoder = new ZlibDecoder(ZlibWrapper.GZIP);
        EmbeddedChannel ch = new EmbeddedChannel(decoder, sink);
        DecompressionLimitException e = assertInstanceOf(DecompressionLimitException.class, feed(ch, bomb));
        assertEquals("maxRatio", e.limitName());
        assertEquals(ZlibDecoder.DEFAULT_MAX_RATIO, e.limit());
        assertTrue(e.getMessage().contains("maximum ratio of 100 (maxRatio)"), e.getMessage());
        assertEquals(0, sink.bytes, "the chunk that crossed the ratio was dropped");
        assertTrue(decoder.isClosed());
        assertFalse(ch.finish()); // nothing left, nothing leaked (PARANOID), no second report
    }

    @Test
    void aBombWithinTheRatioIsRejectedByTheSize() {
        byte[] bomb = gzippedRequests(1_000_000);
        Sink sink = new Sink(false);
        long max = 4 << 20;
        EmbeddedChannel ch = new EmbeddedChannel(new ZlibDecoder(ZlibWrapper.GZIP, max, 2000), sink);
        DecompressionLimitException e = assertInstanceOf(DecompressionLimitException.class, feed(ch, bomb));
        assertEquals("maxDecompressedBytes", e.limitName());
        assertEquals(max, e.limit());
        assertTrue(e.getMessage().contains(max + " bytes (maxDecompressedBytes)"), e.getMessage());
        assertTrue(sink.bytes <= max && sink.bytes > max - ZlibDecoder.CHUNK_SIZE, "passed on " + sink.bytes);
        assertFalse(ch.finish());
    }

    @Test
    void aShortMessageThatCompressesExtremelyWellPasses() {
        byte[] zeros = new byte[(int) ZlibDecoder.RATIO_GRACE_BYTES - 1];
        Sink sink = new Sink(false);
        EmbeddedChannel ch = new EmbeddedChannel(new ZlibDecoder(ZlibWrapper.GZIP), sink);
        assertEquals(null, feed(ch, gzip(zeros)));
        assertEquals(zeros.length, sink.bytes);
        assertFalse(ch.finish());
    }

    @Test
    void ratioZeroTurnsTheRatioCheckOffAndANegativeOneIsRefused() {
        byte[] zeros = new byte[1 << 20];
        Sink sink = new Sink(false);
        EmbeddedChannel ch = new EmbeddedChannel(new ZlibDecoder(ZlibWrapper.GZIP, 2 << 20, 0), sink);
        assertEquals(null, feed(ch, gzip(zeros)));
        assertEquals(zeros.length, sink.bytes);
        assertFalse(ch.finish());
        assertThrows(IllegalArgumentException.class, () -> new ZlibDecoder(ZlibWrapper.GZIP, 1, -1));
    }

    @Test
    void inflationPausesWhileTheChannelIsUnwritableAndResumesWhenItDrains() {
        int requests = 200_000; // 5.4 MB of requests in about 13 KB: one read
        byte[] wire = gzippedRequests(requests);
        Sink sink = new Sink(true);
        ZlibDecoder decoder = new ZlibDecoder(ZlibWrapper.GZIP, 64 << 20, 0);
        EmbeddedChannel ch = new EmbeddedChannel(decoder, sink);
        ch.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(8 * 1024, 16 * 1024));

        ch.writeInbound(ch.alloc().buffer(wire.length).writeBytes(wire));
        assertEquals(1, sink.chunks, "one chunk, then the answers fill the outbound buffer");
        assertFalse(ch.isWritable());
        assertFalse(ch.config().isAutoRead(), "reading stopped with inflating");

        long total = requests * 27L;
        int rounds = 0;
        while (sink.bytes < total) {
            int before = sink.chunks;
            ch.flush(); // the peer took the answers: writable again, and the decoder resumes in a task
            ch.releaseOutbound();
            ch.runPendingTasks();
            assertEquals(before + 1, sink.chunks, "one more chunk per drain, round " + rounds);
            rounds++;
        }
        assertEquals(total, sink.bytes);
        assertTrue(rounds >= total / ZlibDecoder.CHUNK_SIZE - 1, rounds + " rounds");
        ch.flush();
        ch.releaseOutbound();
        ch.runPendingTasks();
        assertTrue(ch.config().isAutoRead(), "reading resumed");
        assertFalse(ch.finish());
    }

    @Test
    void bytesThatArriveWhilePausedWaitAndAreReleasedIfTheChannelCloses() {
        byte[] wire = gzippedRequests(200_000);
        Sink sink = new Sink(true);
        EmbeddedChannel ch = new EmbeddedChannel(new ZlibDecoder(ZlibWrapper.GZIP, 64 << 20, 0), sink);
        ch.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(8 * 1024, 16 * 1024));
        int half = wire.length / 2;
        ch.writeInbound(ch.alloc().buffer(half).writeBytes(wire, 0, half));
        assertEquals(1, sink.chunks);
        ch.writeInbound(ch.alloc().buffer(wire.length - half).writeBytes(wire, half, wire.length - half));
        assertEquals(1, sink.chunks, "nothing inflated while paused");
        // The close releases the unflushed answer and the input that waited (PARANOID finds any leak).
        assertFalse(ch.finish());
    }
}
