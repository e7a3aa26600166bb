package io.rill.handler.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;

class ChunkedWriteHandlerTest {

    @TempDir
    Path dir;

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        new Random(42).nextBytes(bytes);
        return bytes;
    }

    /** Reads every outbound buffer, releasing them; returns their concatenated bytes. */
    private static byte[] drain(EmbeddedChannel ch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf buf; (buf = ch.readOutbound()) != null; ) {
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            out.writeBytes(b);
            buf.release();
        }
        return out.toByteArray();
    }

    /** An input that counts closes and can be made to fail or to have nothing ready. */
    static final class TestInput implements ChunkedInput<ByteBuf> {
        final AtomicInteger closes = new AtomicInteger();
        int chunksLeft;
        boolean ready = true;
        boolean failNext;

        TestInput(int chunks) {
            chunksLeft = chunks;
        }

        @Override
        public boolean isEndOfInput() {
            return chunksLeft == 0;
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }

        @Override
        public ByteBuf readChunk(ByteBufAllocator alloc) throws IOException {
            if (failNext) {
                throw new IOException("read failed (expected by test)");
            }
            if (!ready || chunksLeft == 0) {
                return null;
            }
            chunksLeft--;
            return alloc.buffer(4).writeInt(chunksLeft);
        }

        @Override
        public long length() {
            return -1;
        }

        @Override
        public long progress() {
            return 0;
        }
    }

    @Test
    void writesAChunkedNioFileWhole() throws Exception {
        byte[] content = randomBytes(100_000);
        Path file = Files.write(dir.resolve("f"), content);
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ChunkedNioFile input = new ChunkedNioFile(file.toFile());
        Future<Void> f = ch.writeAndFlush(input);
        ch.runPendingTasks();
        assertTrue(f.isSuccess());
        assertArrayEquals(content, drain(ch));
        assertEquals(content.length, input.progress());
        assertTrue(input.isEndOfInput(), "closed once written");
        assertFalse(ch.finish());
    }

    @Test
    void writesARegionOfAChunkedFile() throws Exception {
        byte[] content = randomBytes(20_000);
        Path file = Files.write(dir.resolve("f"), content);
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r");
        ChunkedFile input = new ChunkedFile(raf, 1000, 15_000, 4096);
        assertEquals(15_000, input.length());
        ch.writeAndFlush(input).syncUninterruptibly();
        byte[] expected = new byte[15_000];
        System.arraycopy(content, 1000, expected, 0, expected.length);
        assertArrayEquals(expected, drain(ch));
        assertFalse(raf.getChannel().isOpen(), "the file was closed");
        assertFalse(ch.finish());
    }

    @Test
    void writesAChunkedStreamAndDetectsItsEnd() {
        byte[] content = randomBytes(10_001);
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ChunkedStream input = new ChunkedStream(new ByteArrayInputStream(content), 1000);
        ch.writeAndFlush(input).syncUninterruptibly();
        assertArrayEquals(content, drain(ch));
        assertEquals(content.length, input.progress());
        assertFalse(ch.finish());
    }

    @Test
    void emptyInputsCompleteWithAnEmptyWrite() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        Future<Void> f = ch.writeAndFlush(new ChunkedStream(new ByteArrayInputStream(new byte[0])));
        assertTrue(f.isSuccess());
        assertEquals(0, drain(ch).length);
        assertFalse(ch.finish());
    }

    @Test
    void aVoidPromiseInputIsWrittenAndClosed() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        TestInput input = new TestInput(3);
        ch.writeAndFlush(input, ch.voidPromise());
        ch.runPendingTasks();
        assertEquals(12, drain(ch).length);
        assertEquals(1, input.closes.get());
        assertFalse(ch.finish());
    }

    @Test
    void keepsOrderWithOtherMessages() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        ch.write(Unpooled.wrappedBuffer(new byte[] {1}));
        ch.write(new ChunkedStream(new ByteArrayInputStream(new byte[] {2, 3}), 1));
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {4}));
        assertArrayEquals(new byte[] {1, 2, 3, 4}, drain(ch));
        assertFalse(ch.finish());
    }

    /** Exposes the outbound buffer so a test can clear a user-defined writability flag, like a slow peer. */
    static final class ThrottledChannel extends EmbeddedChannel {
        ThrottledChannel(ChannelHandler... handlers) {
            super(handlers);
        }

        void writable(boolean writable) {
            outboundBuffer().setUserDefinedWritability(1, writable);
            runPendingTasks();
        }
    }

    @Test
    void waitsWhileUnwritableAndResumesOnWritabilityChange() {
        ThrottledChannel ch = new ThrottledChannel(new ChunkedWriteHandler());
        ch.writable(false);
        TestInput input = new TestInput(100);
        Future<Void> f = ch.writeAndFlush(input);
        ch.runPendingTasks();
        assertEquals(0, drain(ch).length, "nothing read while unwritable");
        assertEquals(100, input.chunksLeft, "no chunk read ahead");
        ch.writable(true);
        assertTrue(f.isSuccess());
        assertEquals(400, drain(ch).length);
        assertEquals(1, input.closes.get());
        assertFalse(ch.finish());
    }

    @Test
    void flushesEachTimeTheOutboundBufferFills() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(40, 100));
        FlushCounter counter = new FlushCounter();
        ch.pipeline().addLast(counter, new ChunkedWriteHandler());
        ch.writeAndFlush(new ChunkedStream(new ByteArrayInputStream(randomBytes(10_000)), 50)).syncUninterruptibly();
        assertEquals(10_000, drain(ch).length);
        assertEquals(200, counter.writes);
        assertTrue(counter.maxWritesPerFlush <= 2, "never more than the high water mark queued: "
                + counter.maxWritesPerFlush + " writes in one flush");
        assertFalse(ch.finish());
    }

    /** Counts writes and the most writes seen between two flushes. */
    static final class FlushCounter implements ChannelHandler {
        int writes;
        int sinceFlush;
        int maxWritesPerFlush;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, io.rill.util.concurrent.Promise<Void> promise) {
            writes++;
            sinceFlush++;
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            maxWritesPerFlush = Math.max(maxWritesPerFlush, sinceFlush);
            sinceFlush = 0;
            ctx.flush();
        }
    }

    @Test
    void aFlushWithNothingQueuedHereStillReachesTheTransport() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new ChunkedWriteHandler());
        ch.pipeline().context(counter).write(Unpooled.wrappedBuffer(new byte[] {1})); // written below the handler
        ch.flush();
        assertEquals(1, ch.outboundMessages().size());
        ch.finishAndReleaseAll();
    }

    @Test
    void anInputWithNothingReadyWaitsForResumeTransfer() {
        ChunkedWriteHandler handler = new ChunkedWriteHandler();
        EmbeddedChannel ch = new EmbeddedChannel(handler);
        TestInput input = new TestInput(2);
        input.ready = false;
        Future<Void> f = ch.writeAndFlush(input);
        assertFalse(f.isDone());
        assertNull(ch.readOutbound());
        input.ready = true;
        handler.resumeTransfer();
        assertTrue(f.isSuccess());
        assertEquals(8, drain(ch).length);
        assertFalse(ch.finish());
    }

    @Test
    void aFailingReadFailsThePromiseAndClosesTheInput() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        TestInput input = new TestInput(5);
        input.failNext = true;
        Future<Void> f = ch.writeAndFlush(input);
        assertInstanceOf(IOException.class, f.cause());
        assertEquals(1, input.closes.get());
        Future<Void> next = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {9}));
        assertTrue(next.isSuccess(), "later writes still go out");
        assertArrayEquals(new byte[] {9}, drain(ch));
        assertFalse(ch.finish());
    }

    @Test
    void closingTheChannelFailsAndClosesPendingInputsAndReleasesMessages() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        TestInput input = new TestInput(3);
        input.ready = false;
        Future<Void> chunked = ch.writeAndFlush(input);
        ByteBuf plain = Unpooled.wrappedBuffer(new byte[] {1});
        Future<Void> queued = ch.writeAndFlush(plain);
        ch.close();
        assertInstanceOf(ClosedChannelException.class, chunked.cause());
        assertInstanceOf(ClosedChannelException.class, queued.cause());
        assertEquals(1, input.closes.get());
        assertEquals(0, plain.refCnt());
        assertFalse(ch.finish());
    }

    @Test
    void aCancelledInputIsClosedAndSkipped() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        TestInput input = new TestInput(3);
        Future<Void> f = ch.write(input);
        assertTrue(f.cancel(false));
        ch.flush();
        assertEquals(1, input.closes.get());
        assertNull(ch.readOutbound());
        assertFalse(ch.finish());
    }

    @Test
    void aTruncatedFileFailsWithEofAndLeaksNothing() throws Exception {
        Path file = Files.write(dir.resolve("f"), randomBytes(1000));
        FileChannel fc = FileChannel.open(file, StandardOpenOption.READ);
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler());
        Future<Void> f = ch.writeAndFlush(new ChunkedNioFile(fc, 0, 5000, 512));
        assertInstanceOf(java.io.EOFException.class, f.cause());
        assertFalse(fc.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void rejectsBadArguments() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[1]);
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThrows(IllegalArgumentException.class, () -> new ChunkedNioFile(fc, -1, 1, 1));
            assertThrows(IllegalArgumentException.class, () -> new ChunkedNioFile(fc, 0, 1, 0));
        }
        assertThrows(IllegalArgumentException.class, () -> new ChunkedStream(new ByteArrayInputStream(new byte[0]), 0));
    }
}
