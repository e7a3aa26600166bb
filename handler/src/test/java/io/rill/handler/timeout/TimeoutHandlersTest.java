package io.rill.handler.timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.timeout.IdleStateHandlerTest.HoldingWrites;
import io.rill.util.concurrent.Future;

class TimeoutHandlersTest {

    /** Collects exceptions, so the embedded channel does not rethrow them. */
    static final class ExceptionRecorder implements ChannelHandler {
        final List<Throwable> caught = new ArrayList<>();

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            caught.add(cause);
        }
    }

    private static void advance(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
    }

    @Test
    void readTimeoutFiresOnceAndCloses() {
        ExceptionRecorder recorder = new ExceptionRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(new ReadTimeoutHandler(100, TimeUnit.MILLISECONDS), recorder);
        advance(ch, 50);
        ch.writeInbound("keep-alive");
        advance(ch, 99);
        assertTrue(ch.isOpen());
        advance(ch, 1);
        assertFalse(ch.isOpen());
        assertEquals(1, recorder.caught.size());
        assertInstanceOf(ReadTimeoutException.class, recorder.caught.get(0));
        ch.finishAndReleaseAll();
    }

    @Test
    void writeTimeoutFailsAStuckWriteAndCloses() {
        ExceptionRecorder recorder = new ExceptionRecorder();
        HoldingWrites transport = new HoldingWrites();
        EmbeddedChannel ch = new EmbeddedChannel(transport,
                new WriteTimeoutHandler(100, TimeUnit.MILLISECONDS), recorder);
        Future<Void> write = ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[4]));
        advance(ch, 99);
        assertTrue(ch.isOpen());
        advance(ch, 1);
        assertFalse(ch.isOpen());
        assertEquals(1, recorder.caught.size());
        assertInstanceOf(WriteTimeoutException.class, recorder.caught.get(0));
        assertFalse(write.isDone(), "the write itself is the transport's to fail");
        transport.completeAll();
        ch.finishAndReleaseAll();
    }

    @Test
    void aWriteThatCompletesInTimeCancelsItsTimer() {
        ExceptionRecorder recorder = new ExceptionRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(new WriteTimeoutHandler(100, TimeUnit.MILLISECONDS), recorder);
        ch.writeOutbound(Unpooled.wrappedBuffer(new byte[4]), Unpooled.wrappedBuffer(new byte[4]));
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[4]), ch.voidPromise());
        ch.runPendingTasks();
        assertEquals(-1, ch.runScheduledPendingTasks(), "no timer left behind");
        advance(ch, 1000);
        assertTrue(ch.isOpen());
        assertEquals(List.of(), recorder.caught);
        ch.finishAndReleaseAll();
    }

    @Test
    void removingTheHandlerCancelsPendingTimers() {
        HoldingWrites transport = new HoldingWrites();
        WriteTimeoutHandler handler = new WriteTimeoutHandler(100, TimeUnit.MILLISECONDS);
        EmbeddedChannel ch = new EmbeddedChannel(transport, handler);
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[4]));
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[4]));
        ch.pipeline().remove(handler);
        advance(ch, 1000);
        assertTrue(ch.isOpen());
        assertEquals(-1, ch.runScheduledPendingTasks());
        transport.completeAll();
        ch.finishAndReleaseAll();
    }

    @Test
    void rejectsNonPositiveTimeouts() {
        assertThrows(IllegalArgumentException.class, () -> new ReadTimeoutHandler(0));
        assertThrows(IllegalArgumentException.class, () -> new WriteTimeoutHandler(-1, TimeUnit.SECONDS));
    }
}
