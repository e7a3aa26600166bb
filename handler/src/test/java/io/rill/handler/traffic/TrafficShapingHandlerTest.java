package io.rill.handler.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;

class TrafficShapingHandlerTest {

    private static ByteBuf bytes(int n) {
        return Unpooled.buffer(n).writeZero(n);
    }

    private static void advance(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
    }

    /** Counts the read() requests that get past the shaper. */
    static final class ReadCounter implements ChannelHandler {
        int reads;

        @Override
        public void read(ChannelHandlerContext ctx) {
            reads++;
            ctx.read();
        }
    }

    // ---------------------------------------------------------------- writes

    @Test
    void pacesWritesToTheLimit() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(1000, 0);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        List<Future<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            writes.add(ch.writeAndFlush(bytes(100)));
        }
        ch.runPendingTasks();
        assertEquals(1, ch.outboundMessages().size(), "the first write goes at once");
        assertEquals(900, shaper.queuedWriteBytes());
        for (int i = 1; i < 10; i++) {
            advance(ch, 99);
            assertEquals(i, ch.outboundMessages().size(), "not before its turn, at " + (i * 100 - 1) + " ms");
            advance(ch, 1);
            assertEquals(i + 1, ch.outboundMessages().size(), "on its turn, at " + i * 100 + " ms");
        }
        assertTrue(writes.stream().allMatch(Future::isSuccess));
        assertEquals(1000, shaper.trafficCounter().cumulativeWrittenBytes());
        assertEquals(0, shaper.queuedWriteBytes());
        ch.finishAndReleaseAll();
    }

    @Test
    void messagesWithoutBytesKeepTheirPlaceInTheQueue() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(1000, 0));
        ch.writeAndFlush(bytes(500));
        ch.writeAndFlush(bytes(500));
        ch.writeAndFlush("marker");
        assertEquals(1, ch.outboundMessages().size());
        advance(ch, 500);
        assertEquals(3, ch.outboundMessages().size());
        ch.releaseOutbound();
        ch.finishAndReleaseAll();
    }

    @Test
    void theQueueIsBounded() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(1000, 0, 1000, 15_000, 250));
        ch.writeAndFlush(bytes(100));
        Future<Void> second = ch.writeAndFlush(bytes(100));
        Future<Void> third = ch.writeAndFlush(bytes(100));
        ByteBuf refused = bytes(100);
        Future<Void> fourth = ch.writeAndFlush(refused);
        assertInstanceOf(PendingWritesFullException.class, fourth.cause());
        assertEquals(0, refused.refCnt(), "a refused write is released");
        assertFalse(second.isDone());
        advance(ch, 200);
        assertTrue(second.isSuccess() && third.isSuccess());
        ch.finishAndReleaseAll();
    }

    @Test
    void noWriteWaitsLongerThanMaxTime() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(100, 0, 1000, 1000, 1 << 20));
        ch.writeAndFlush(bytes(1000));
        ch.writeAndFlush(bytes(1000));
        ch.writeAndFlush(bytes(1000));
        assertEquals(1, ch.outboundMessages().size());
        advance(ch, 1000);
        assertEquals(3, ch.outboundMessages().size(), "a 10 s turn was cut to the 1 s maximum");
        ch.finishAndReleaseAll();
    }

    @Test
    void closingFailsAndReleasesQueuedWrites() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(1000, 0));
        ch.writeAndFlush(bytes(1000));
        ByteBuf queued = bytes(1000);
        Future<Void> f = ch.writeAndFlush(queued);
        ch.close();
        assertInstanceOf(ClosedChannelException.class, f.cause());
        assertEquals(0, queued.refCnt());
        assertEquals(-1, ch.runScheduledPendingTasks(), "no timer left behind");
        ch.finishAndReleaseAll();
    }

    @Test
    void removingTheShaperSendsWhatWaitedInOrder() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(1000, 0);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        ch.writeAndFlush(bytes(1000));
        ch.writeAndFlush(bytes(1));
        ch.writeAndFlush(bytes(2));
        ch.pipeline().remove(shaper);
        ch.flushOutbound();
        assertEquals(3, ch.outboundMessages().size());
        ((ByteBuf) ch.readOutbound()).release();
        ByteBuf one = ch.readOutbound();
        assertEquals(1, one.readableBytes());
        one.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void unlimitedWritesPassStraightThrough() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(0, 0);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        for (int i = 0; i < 5; i++) {
            ch.writeAndFlush(bytes(1 << 20));
        }
        assertEquals(5, ch.outboundMessages().size());
        assertEquals(5 << 20, shaper.trafficCounter().cumulativeWrittenBytes());
        ch.finishAndReleaseAll();
    }

    // ---------------------------------------------------------------- reads

    @Test
    void suspendsAutoReadForExactlyTheTimeTheBytesTake() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(0, 1000);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        ch.writeInbound(bytes(500));
        assertFalse(ch.config().isAutoRead(), "500 B at 1000 B/s: reading pauses");
        assertEquals(1, ch.inboundMessages().size(), "what was read is passed on");
        advance(ch, 499);
        assertFalse(ch.config().isAutoRead());
        advance(ch, 1);
        assertTrue(ch.config().isAutoRead());
        assertEquals(500, shaper.trafficCounter().cumulativeReadBytes());
        ch.finishAndReleaseAll();
    }

    @Test
    void holdsExplicitReadRequestsWhenAutoReadIsOff() {
        ReadCounter counter = new ReadCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new ChannelTrafficShapingHandler(0, 1000));
        ch.config().setAutoRead(false);
        ch.writeInbound(bytes(200));
        counter.reads = 0;
        ch.read();
        assertEquals(0, counter.reads, "held back while suspended");
        advance(ch, 200);
        assertEquals(1, counter.reads, "passed on at resumption");
        assertFalse(ch.config().isAutoRead(), "the application's choice is kept");
        ch.finishAndReleaseAll();
    }

    @Test
    void smallReadsUnderTheLimitDoNotSuspend() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(0, 1_000_000));
        ch.writeInbound(bytes(1000)); // 1 ms worth: below the 10 ms threshold
        assertTrue(ch.config().isAutoRead());
        ch.finishAndReleaseAll();
    }

    // ---------------------------------------------------------------- counter, global

    @Test
    void theCounterReportsThroughputPerInterval() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(0, 0, 1000, 15_000, 1 << 20);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        ch.writeInbound(bytes(10));
        ch.writeOutbound(bytes(10));
        for (int i = 0; i < 10; i++) {
            advance(ch, 100);
            ch.writeInbound(bytes(300));
            ch.writeOutbound(bytes(100));
        }
        TrafficCounter counter = shaper.trafficCounter();
        assertEquals(3010, counter.cumulativeReadBytes());
        assertEquals(1010, counter.cumulativeWrittenBytes());
        assertEquals(3010, counter.lastReadThroughput(), "3010 B in the 1 s interval just ended");
        assertEquals(910, counter.lastWriteThroughput(), "the read at 1000 ms closed the interval: the write after it counts for the next");
        assertEquals(100, counter.currentWrittenBytes());
        ch.finishAndReleaseAll();
    }

    @Test
    void aGlobalShaperSharesOneLimitAmongChannels() {
        GlobalTrafficShapingHandler shaper = new GlobalTrafficShapingHandler(1000, 0);
        EmbeddedChannel a = new EmbeddedChannel(shaper);
        EmbeddedChannel b = new EmbeddedChannel(shaper);
        a.writeAndFlush(bytes(100));
        b.writeAndFlush(bytes(100));
        assertEquals(1, a.outboundMessages().size());
        assertEquals(0, b.outboundMessages().size(), "b waits for the bytes a used");
        advance(a, 100); // both manual clocks move together
        advance(b, 100);
        assertEquals(1, b.outboundMessages().size());
        assertEquals(200, shaper.trafficCounter().cumulativeWrittenBytes());
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void limitsCanChangeAndBadSettingsAreRefused() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(1000, 2000);
        shaper.setWriteLimit(0);
        shaper.setReadLimit(5);
        assertEquals(0, shaper.writeLimit());
        assertEquals(5, shaper.readLimit());
        assertThrows(IllegalArgumentException.class, () -> shaper.setReadLimit(-1));
        assertThrows(IllegalArgumentException.class, () -> new ChannelTrafficShapingHandler(0, 0, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new GlobalTrafficShapingHandler(0, 0, 1000, 0, 1));
    }
}
