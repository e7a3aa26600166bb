package io.rill.handler.timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Promise;

class IdleStateHandlerTest {

    /** Records every user event that reaches it. */
    static final class EventRecorder implements ChannelHandler {
        final List<Object> events = new ArrayList<>();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }
    }

    /** Holds writes instead of passing them on, as a transport with a slow peer would. */
    static final class HoldingWrites implements ChannelHandler {
        final List<Object> held = new ArrayList<>();
        final List<Promise<Void>> promises = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
            held.add(msg);
            promises.add(promise);
        }

        void completeAll() {
            held.forEach(ReferenceCountUtil::release);
            promises.forEach(p -> p.trySuccess(null));
            held.clear();
            promises.clear();
        }
    }

    private static void advance(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
    }

    @Test
    void firesFirstThenSubsequentReaderIdleEventsUntilSomethingIsRead() {
        EventRecorder recorder = new EventRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(
                new IdleStateHandler(100, 0, 0, TimeUnit.MILLISECONDS), recorder);
        advance(ch, 99);
        assertEquals(List.of(), recorder.events);
        advance(ch, 1);
        assertEquals(List.of(IdleStateEvent.FIRST_READER_IDLE), recorder.events);
        advance(ch, 100);
        assertEquals(List.of(IdleStateEvent.FIRST_READER_IDLE, IdleStateEvent.READER_IDLE), recorder.events);

        recorder.events.clear();
        ch.writeInbound("hello");
        advance(ch, 99);
        assertEquals(List.of(), recorder.events);
        advance(ch, 1);
        assertEquals(List.of(IdleStateEvent.FIRST_READER_IDLE), recorder.events, "a read starts a new idle stretch");
        ch.finishAndReleaseAll();
    }

    @Test
    void aReadBurstInProgressIsNotIdle() {
        EventRecorder recorder = new EventRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(
                new IdleStateHandler(100, 0, 0, TimeUnit.MILLISECONDS), recorder);
        ch.pipeline().fireChannelRead("part"); // no channelReadComplete yet
        advance(ch, 250);
        assertEquals(List.of(), recorder.events);
        ch.flushInbound();
        advance(ch, 100);
        assertEquals(List.of(IdleStateEvent.FIRST_READER_IDLE), recorder.events);
        ch.finishAndReleaseAll();
    }

    @Test
    void writerIdleCountsFromWriteCompletionNotRequest() {
        EventRecorder recorder = new EventRecorder();
        HoldingWrites transport = new HoldingWrites();
        EmbeddedChannel ch = new EmbeddedChannel(transport,
                new IdleStateHandler(0, 100, 0, TimeUnit.MILLISECONDS), recorder);
        advance(ch, 60);
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[10]));
        advance(ch, 40);
        assertEquals(List.of(IdleStateEvent.FIRST_WRITER_IDLE), recorder.events,
                "a requested but unfinished write is no activity");
        transport.completeAll();
        advance(ch, 99);
        assertEquals(1, recorder.events.size());
        advance(ch, 1);
        assertEquals(List.of(IdleStateEvent.FIRST_WRITER_IDLE, IdleStateEvent.FIRST_WRITER_IDLE), recorder.events);
        ch.finishAndReleaseAll();
    }

    @Test
    void allIdleNeedsBothDirectionsQuiet() {
        EventRecorder recorder = new EventRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(
                new IdleStateHandler(0, 0, 100, TimeUnit.MILLISECONDS), recorder);
        advance(ch, 70);
        ch.writeInbound("in");
        advance(ch, 70);
        ch.writeOutbound(Unpooled.wrappedBuffer(new byte[1]));
        advance(ch, 70);
        assertEquals(List.of(), recorder.events);
        advance(ch, 30);
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE), recorder.events);
        advance(ch, 100);
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE, IdleStateEvent.ALL_IDLE), recorder.events);
        ch.finishAndReleaseAll();
    }

    @Test
    void observedOutputProgressCountsAsWriterActivity() {
        EventRecorder recorder = new EventRecorder();
        HoldingWrites transport = new HoldingWrites();
        EmbeddedChannel ch = new EmbeddedChannel(transport,
                new IdleStateHandler(true, 0, 100, 0, TimeUnit.MILLISECONDS), recorder);
        ByteBuf big = Unpooled.buffer(1000).writeZero(1000);
        ch.writeAndFlush(big);
        advance(ch, 100);
        assertEquals(List.of(IdleStateEvent.FIRST_WRITER_IDLE), recorder.events, "no progress yet");
        big.skipBytes(10); // the transport wrote part of it
        advance(ch, 100);
        assertEquals(1, recorder.events.size(), "progress seen: not idle");
        advance(ch, 100);
        assertEquals(List.of(IdleStateEvent.FIRST_WRITER_IDLE, IdleStateEvent.FIRST_WRITER_IDLE), recorder.events,
                "stuck again: a new idle stretch");
        transport.completeAll();
        ch.finishAndReleaseAll();
    }

    @Test
    void observedWritesAreTrackedByIdentityNotContent() {
        EventRecorder recorder = new EventRecorder();
        HoldingWrites transport = new HoldingWrites();
        EmbeddedChannel ch = new EmbeddedChannel(transport,
                new IdleStateHandler(true, 0, 100, 0, TimeUnit.MILLISECONDS), recorder);
        ByteBuf first = Unpooled.buffer(100).writeZero(100);
        ByteBuf second = Unpooled.buffer(100).writeZero(100); // equal content
        ch.writeAndFlush(first);
        ch.writeAndFlush(second);
        first.release();
        transport.promises.remove(0).setSuccess(null); // the first completes
        transport.held.remove(0);
        second.skipBytes(1);
        advance(ch, 100);
        assertEquals(List.of(), recorder.events, "the second one's progress is seen, the first one is gone");
        transport.completeAll();
        ch.finishAndReleaseAll();
    }

    @Test
    void withoutObserveOutputProgressIsNotActivity() {
        EventRecorder recorder = new EventRecorder();
        HoldingWrites transport = new HoldingWrites();
        EmbeddedChannel ch = new EmbeddedChannel(transport,
                new IdleStateHandler(false, 0, 100, 0, TimeUnit.MILLISECONDS), recorder);
        ByteBuf big = Unpooled.buffer(1000).writeZero(1000);
        ch.writeAndFlush(big);
        advance(ch, 100);
        big.skipBytes(10);
        advance(ch, 100);
        assertEquals(List.of(IdleStateEvent.FIRST_WRITER_IDLE, IdleStateEvent.WRITER_IDLE), recorder.events);
        transport.completeAll();
        ch.finishAndReleaseAll();
    }

    @Test
    void voidPromiseWritesStillCountAsActivity() {
        EventRecorder recorder = new EventRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(
                new IdleStateHandler(0, 100, 0, TimeUnit.MILLISECONDS), recorder);
        advance(ch, 90);
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[1]), ch.voidPromise());
        ch.runPendingTasks();
        advance(ch, 90);
        assertEquals(List.of(), recorder.events);
        ch.finishAndReleaseAll();
    }

    @Test
    void stopsCheckingOnceRemovedOrClosed() {
        EventRecorder recorder = new EventRecorder();
        IdleStateHandler handler = new IdleStateHandler(100, 100, 100, TimeUnit.MILLISECONDS);
        EmbeddedChannel ch = new EmbeddedChannel(handler, recorder);
        ch.pipeline().remove(handler);
        advance(ch, 500);
        assertEquals(List.of(), recorder.events);
        assertEquals(-1, ch.runScheduledPendingTasks(), "every check was cancelled");
        ch.finishAndReleaseAll();
    }

    @Test
    void startsWhenAddedToAnActiveChannel() {
        EventRecorder recorder = new EventRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(recorder);
        ch.pipeline().addFirst(new IdleStateHandler(100, 0, 0, TimeUnit.MILLISECONDS));
        advance(ch, 100);
        assertEquals(List.of(IdleStateEvent.FIRST_READER_IDLE), recorder.events);
        ch.finishAndReleaseAll();
    }

    @Test
    void rejectsNegativeTimes() {
        assertThrows(IllegalArgumentException.class, () -> new IdleStateHandler(-1, 0, 0, TimeUnit.SECONDS));
        assertTrue(new IdleStateHandler(0, 0, 1, TimeUnit.NANOSECONDS).allIdleTime(TimeUnit.MILLISECONDS) >= 1,
                "tiny thresholds are raised to the 1 ms floor");
    }
}
