package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.RillProperties;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

class ChannelOutboundBufferTest {

    private static final int OVERHEAD = RillProperties.CHANNEL_OUTBOUND_ENTRY_OVERHEAD;

    /** Counts channelWritabilityChanged events. */
    static final class WritabilityCounter implements ChannelHandler {
        final AtomicInteger changes = new AtomicInteger();

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            changes.incrementAndGet();
        }
    }

    private static ByteBuf bytes(int n) {
        return Unpooled.buffer(n).writeZero(n);
    }

    @Test
    void waterMarksFlipWritabilityExactlyAtTheThresholdsOncePerFlip() {
        WritabilityCounter counter = new WritabilityCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter);
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1000, 2000));

        ch.write(bytes(2000 - OVERHEAD)); // exactly at high: still writable
        assertTrue(ch.isWritable());
        assertEquals(1, ch.bytesBeforeUnwritable());
        ch.write(bytes(1)); // one byte past high
        assertFalse(ch.isWritable());
        assertEquals(1, counter.changes.get());
        ch.write(bytes(10)); // further writes do not fire again
        assertEquals(1, counter.changes.get());
        assertEquals(2000 + 1 + OVERHEAD + 10 + OVERHEAD - 1000, ch.bytesBeforeWritable());

        ch.flush(); // everything leaves: back below low
        assertTrue(ch.isWritable());
        assertEquals(2, counter.changes.get());
        assertTrue(ch.finishAndReleaseAll());
    }

    @Test
    void bytesAHandlerHoldsBackCountTowardWritabilityUntilTakenOff() {
        WritabilityCounter counter = new WritabilityCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter);
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1000, 2000));

        ch.incrementPendingOutboundBytes(2000);
        assertTrue(ch.isWritable());
        ch.incrementPendingOutboundBytes(1);
        assertFalse(ch.isWritable());
        assertEquals(1, counter.changes.get());
        ch.decrementPendingOutboundBytes(1000); // 1001 left: above low
        assertFalse(ch.isWritable());
        ch.decrementPendingOutboundBytes(1);
        assertTrue(ch.isWritable());
        assertEquals(2, counter.changes.get());
        assertEquals(2000 - 1000 + 1, ch.bytesBeforeUnwritable());
        assertThrows(IllegalArgumentException.class,
                () -> ch.incrementPendingOutboundBytes(-1));
        ch.decrementPendingOutboundBytes(1000);
        assertFalse(ch.finishAndReleaseAll());
        ch.incrementPendingOutboundBytes(1 << 20); // closed: ignored
        assertFalse(ch.isWritable());
    }

    @Test
    void forEachFlushedMessageShowsFlushedMessagesInOrderAndStopsWhenAsked() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        ByteBuf a = bytes(1);
        ByteBuf b = bytes(2);
        ByteBuf c = bytes(3);
        buf.addMessage(a, 1, ch.newPromise());
        buf.addMessage(b, 2, ch.newPromise());
        buf.addFlush();
        buf.addMessage(c, 3, ch.newPromise()); // not flushed: never shown
        java.util.List<Object> seen = new java.util.ArrayList<>();
        buf.forEachFlushedMessage(seen::add);
        assertEquals(java.util.List.of(a, b), seen);
        seen.clear();
        buf.forEachFlushedMessage(m -> seen.add(m) && false);
        assertEquals(java.util.List.of(a), seen, "stops when the visitor says so");
        assertEquals(2, buf.size(), "nothing removed");
        buf.failFlushed(new ClosedChannelException(), false);
        buf.close(new ClosedChannelException());
        assertEquals(0, a.refCnt() + b.refCnt() + c.refCnt(), "all released");
        ch.finish();
    }

    @Test
    void writabilityReturnsOnlyAtTheLowMarkNotJustBelowHigh() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1000, 2000));
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        buf.addMessage(bytes(1500), 1500, ch.newPromise());
        buf.addMessage(bytes(600), 600, ch.newPromise());
        assertFalse(buf.isWritable());
        buf.addFlush();
        buf.remove(); // 600 + overhead left: above low (1000)? 696 <= 1000, so writable again
        assertTrue(buf.isWritable());
        buf.close(new ClosedChannelException());
        ch.finish();
    }

    @Test
    void userDefinedWritabilityFlagsGateWritabilityAndFireOncePerFlip() {
        WritabilityCounter counter = new WritabilityCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter);
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        buf.setUserDefinedWritability(3, false);
        buf.setUserDefinedWritability(5, false);
        assertFalse(buf.isWritable());
        assertFalse(buf.getUserDefinedWritability(3));
        assertTrue(buf.getUserDefinedWritability(4));
        buf.setUserDefinedWritability(3, true);
        assertFalse(buf.isWritable());
        buf.setUserDefinedWritability(5, true);
        assertTrue(buf.isWritable());
        assertEquals(2, counter.changes.get());
        ch.finish();
    }

    @Test
    void closeFailsPendingWritesWithClosedChannelExceptionAndReleasesThem() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf a = bytes(4);
        ByteBuf b = bytes(4);
        Future<Void> fa = ch.write(a);
        Future<Void> fb = ch.write(b);
        ch.close();
        assertInstanceOf(ClosedChannelException.class, fa.cause());
        assertInstanceOf(ClosedChannelException.class, fb.cause());
        assertEquals(0, a.refCnt());
        assertEquals(0, b.refCnt());
        assertFalse(ch.isWritable());
    }

    @Test
    void partialWritesAdvanceTheFirstBufferAndCompleteOnlyWhatWasFullyWritten() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        ByteBuf a = bytes(10);
        ByteBuf b = bytes(20);
        Promise<Void> pa = ch.newPromise();
        Promise<Void> pb = ch.newPromise();
        buf.addMessage(a, 10, pa);
        buf.addMessage(b, 20, pb);
        buf.addFlush();

        ByteBuffer[] views = buf.nioBuffers(16, Long.MAX_VALUE);
        assertEquals(2, buf.nioBufferCount());
        assertEquals(30, buf.nioBufferSize());
        assertEquals(10, views[0].remaining());

        buf.removeBytes(15); // all of a, 5 of b
        assertTrue(pa.isSuccess());
        assertFalse(pb.isDone());
        assertEquals(0, a.refCnt());
        assertSame(b, buf.current());
        assertEquals(15, b.readableBytes());
        assertEquals(15, buf.nioBuffers(16, Long.MAX_VALUE)[0].remaining());

        buf.removeBytes(15);
        assertTrue(pb.isSuccess());
        assertEquals(0, b.refCnt());
        assertNull(buf.current());
        assertEquals(0, buf.totalPendingWriteBytes());
        ch.finish();
    }

    @Test
    void nioBuffersRespectsCountAndByteLimitsButAlwaysTakesOne() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        for (int i = 0; i < 4; i++) {
            buf.addMessage(bytes(100), 100, ch.newPromise());
        }
        buf.addMessage("not bytes", 0, ch.newPromise());
        buf.addMessage(bytes(100), 100, ch.newPromise());
        buf.addFlush();
        buf.nioBuffers(2, Long.MAX_VALUE);
        assertEquals(2, buf.nioBufferCount());
        buf.nioBuffers(16, 250);
        assertEquals(2, buf.nioBufferCount());
        buf.nioBuffers(16, 10);
        assertEquals(1, buf.nioBufferCount());
        buf.nioBuffers(16, Long.MAX_VALUE);
        assertEquals(4, buf.nioBufferCount()); // stops at the String
        buf.close(new ClosedChannelException());
        ch.finish();
    }

    @Test
    void writeCancelledBeforeFlushIsDroppedAndReleased() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf a = bytes(4);
        Promise<Void> p = ch.newPromise();
        ch.write(a, p);
        assertTrue(p.cancel(false));
        ch.writeOutbound("after");
        assertEquals("after", ch.readOutbound());
        assertNull(ch.readOutbound());
        assertEquals(0, a.refCnt());
        ch.finish();
    }

    @Test
    void failedTransportWriteFailsFlushedPromises() throws Exception {
        MultiLoop loop = new MultiLoop();
        try {
            TestChannel ch = new TestChannel(loop.loop);
            ch.register().sync();
            ch.writeFailure = new java.io.IOException("disk on fire");
            ByteBuf a = bytes(3);
            Future<Void> f = ch.writeAndFlush(a);
            assertTrue(f.await(5, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals("disk on fire", f.cause().getMessage());
            assertEquals(0, a.refCnt());
            assertTrue(ch.closeFuture().await(5, java.util.concurrent.TimeUnit.SECONDS), "AUTO_CLOSE on IOException");
        } finally {
            loop.close();
        }
    }

    // ---------------------------------------------------------------- removing the first flushed message

    @Test
    void removingEveryFlushedMessageLeavesTheUnflushedOnesForTheNextFlushInOrder() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        Promise<Void> pa = ch.newPromise();
        Promise<Void> pb = ch.newPromise();
        buf.addMessage("a", 1, pa);
        buf.addMessage("b", 1, pb);
        buf.addFlush();
        buf.addMessage("c", 1, ch.newPromise());
        buf.addMessage("d", 1, ch.newPromise());

        assertTrue(buf.remove());
        assertTrue(pa.isSuccess());
        assertFalse(pb.isDone(), "only the first message is completed");
        assertEquals("b", buf.current());
        assertTrue(buf.remove());
        assertTrue(pb.isSuccess());
        assertNull(buf.current(), "c and d were never flushed");
        assertFalse(buf.remove());
        assertTrue(buf.isEmpty());

        buf.addFlush();
        assertEquals(2, buf.size());
        assertEquals(java.util.List.of("c", "d"), flushed(buf));
        assertTrue(buf.remove());
        assertTrue(buf.remove());
        assertTrue(buf.isEmpty());
        assertEquals(0, buf.totalPendingWriteBytes());
        ch.finish();
    }

    @Test
    void removingTheOnlyMessageEmptiesTheBufferAndTheNextWriteStartsAfresh() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        buf.addMessage("first", 1, ch.newPromise());
        buf.addFlush();
        assertTrue(buf.remove());
        assertTrue(buf.isEmpty());
        assertNull(buf.current());

        buf.addMessage("second", 1, ch.newPromise());
        assertNull(buf.current(), "written, not yet flushed");
        buf.addFlush();
        assertEquals(java.util.List.of("second"), flushed(buf));
        assertEquals(1, buf.size());
        Promise<Void> third = ch.newPromise();
        buf.addMessage("third", 1, third);
        assertTrue(buf.remove(new ClosedChannelException()));
        assertNull(buf.current(), "the failed message went, the unflushed one stays unflushed");
        buf.addFlush();
        assertEquals("third", buf.current());
        assertTrue(buf.remove());
        assertTrue(third.isSuccess());
        assertEquals(0, buf.totalPendingWriteBytes());
        ch.finish();
    }

    @Test
    void cancelledMessagesAtTheFrontAreDroppedWithoutCompletingTheOthers() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelOutboundBuffer buf = new ChannelOutboundBuffer(ch);
        ByteBuf cancelled = bytes(8);
        Promise<Void> pc = ch.newPromise();
        Promise<Void> pl = ch.newPromise();
        buf.addMessage(cancelled, 8, pc);
        buf.addMessage("live", 1, pl);
        assertTrue(pc.cancel(false));
        buf.addFlush();
        assertEquals(0, cancelled.refCnt(), "released when the flush found it cancelled");
        assertEquals("live", buf.current());
        assertEquals(1, buf.size());
        assertFalse(pl.isDone());
        assertTrue(buf.remove());
        assertTrue(pl.isSuccess());
        assertTrue(buf.isEmpty());
        assertFalse(buf.remove());
        ch.finish();
    }

    private static java.util.List<Object> flushed(ChannelOutboundBuffer buf) {
        java.util.List<Object> seen = new java.util.ArrayList<>();
        buf.forEachFlushedMessage(seen::add);
        return seen;
    }
}
