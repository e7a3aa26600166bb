package io.rill.channel.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Promise;

class EmbeddedChannelTest {

    /** Doubles each inbound Integer and prefixes each outbound String. */
    static final class Codec implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.fireChannelRead((Integer) msg * 2);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
            ctx.write(">" + msg, promise);
        }
    }

    @Test
    void messagesRoundTripInBothDirections() {
        EmbeddedChannel ch = new EmbeddedChannel(new Codec());
        assertTrue(ch.isActive());
        assertTrue(ch.writeInbound(1, 2));
        assertEquals(2, (Integer) ch.readInbound());
        assertEquals(4, (Integer) ch.readInbound());
        assertNull(ch.readInbound());
        assertTrue(ch.writeOutbound("a"));
        assertEquals(">a", ch.readOutbound());
        assertFalse(ch.finish());
        assertFalse(ch.isOpen());
    }

    @Test
    void finishReportsLeftoverMessagesAndFinishAndReleaseAllFreesThem() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf in = Unpooled.buffer(4).writeInt(1);
        ByteBuf out = Unpooled.buffer(4).writeInt(2);
        ch.writeInbound(in);
        ch.writeOutbound(out);
        assertEquals(1, ch.inboundMessages().size());
        assertEquals(1, ch.outboundMessages().size());
        assertTrue(ch.finishAndReleaseAll());
        assertEquals(0, in.refCnt());
        assertEquals(0, out.refCnt());

        EmbeddedChannel ch2 = new EmbeddedChannel();
        ch2.writeInbound("left");
        assertTrue(ch2.finish());
        assertEquals("left", ch2.readInbound());
        assertFalse(ch2.releaseInbound());
    }

    @Test
    void checkExceptionRethrowsCheckedExceptionsUnchanged() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
                throw new IOException("broken " + msg);
            }
        });
        IOException e = assertThrows(IOException.class, () -> ch.writeInbound("x"));
        assertEquals("broken x", e.getMessage());
        ch.checkException();
        assertFalse(ch.finish());
    }

    @Test
    void scheduledTasksRunOnlyWhenTimeIsAdvanced() {
        AtomicInteger fired = new AtomicInteger();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                ctx.executor().schedule(fired::incrementAndGet, 10, TimeUnit.SECONDS);
                ctx.executor().scheduleAtFixedRate(fired::incrementAndGet, 20, 20, TimeUnit.SECONDS);
            }
        });
        ch.runPendingTasks();
        assertEquals(0, fired.get());
        ch.advanceTimeBy(9, TimeUnit.SECONDS);
        assertEquals(TimeUnit.SECONDS.toNanos(1), ch.runScheduledPendingTasks());
        assertEquals(0, fired.get());
        ch.advanceTimeBy(1, TimeUnit.SECONDS);
        ch.runPendingTasks();
        assertEquals(1, fired.get());
        ch.advanceTimeBy(20, TimeUnit.SECONDS);
        ch.runPendingTasks();
        assertEquals(2, fired.get(), "periodic task at 20 s; the next is due at 40 s");
        ch.advanceTimeBy(10, TimeUnit.SECONDS);
        ch.runPendingTasks();
        assertEquals(3, fired.get());
        ch.finish();
        assertEquals(-1, ch.runScheduledPendingTasks(), "finish cancels what is still scheduled");
    }

    @Test
    void closeFiresInactiveAndUnregisteredAndWritesAfterItThrow() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelHandler() {
            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                events.add("inactive");
            }

            @Override
            public void channelUnregistered(ChannelHandlerContext ctx) {
                events.add("unregistered");
            }

            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                events.add("removed");
            }
        });
        ch.close();
        assertTrue(ch.closeFuture().isDone());
        assertEquals(List.of("inactive", "unregistered", "removed"), events);
        ByteBuf buf = Unpooled.buffer(1).writeByte(1);
        assertThrows(ClosedChannelException.class, () -> ch.writeInbound(buf));
        assertEquals(0, buf.refCnt());
    }

    @Test
    void unregisteredChannelStaysInactiveUntilRegistered() {
        EmbeddedChannel ch = new EmbeddedChannel(EmbeddedChannelId.INSTANCE, false, new Codec());
        assertFalse(ch.isActive());
        assertFalse(ch.isRegistered());
        ch.register();
        assertTrue(ch.isActive());
        assertTrue(ch.isRegistered());
        ch.finish();
    }

    // ---------------------------------------------------------------- finish and release

    /** On channelInactive says its last words downstream and then, if told to, throws. */
    static final class LastWords implements ChannelHandler {
        final Object words;
        final RuntimeException thenThrow;

        LastWords(Object words, RuntimeException thenThrow) {
            this.words = words;
            this.thenThrow = thenThrow;
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ctx.fireChannelRead(words);
            if (thenThrow != null) {
                throw thenThrow;
            }
        }
    }

    @Test
    void finishClosesAndSaysFalseWhenNothingWasLeft() {
        EmbeddedChannel ch = new EmbeddedChannel();
        assertFalse(ch.finish());
        assertFalse(ch.isOpen());
        assertFalse(ch.finishAndReleaseAll(), "finishing again is harmless");
    }

    @Test
    void finishCountsWhatTheCloseItselfProducedAndLeavesItToTheTest() {
        ByteBuf last = Unpooled.buffer(1).writeByte(7);
        EmbeddedChannel ch = new EmbeddedChannel(new LastWords(last, null));
        assertTrue(ch.finish());
        ByteBuf read = ch.readInbound();
        assertEquals(1, read.refCnt(), "finish releases nothing");
        read.release();
    }

    @Test
    void finishAndReleaseAllReleasesBothQueuesEvenWhenItRethrowsAnException() {
        ByteBuf last = Unpooled.buffer(1).writeByte(1);
        IllegalStateException failure = new IllegalStateException("failed while closing");
        EmbeddedChannel ch = new EmbeddedChannel(new LastWords(last, failure));
        ByteBuf out = Unpooled.buffer(1).writeByte(2);
        ch.writeOutbound(out);
        assertEquals(failure, assertThrows(IllegalStateException.class, ch::finishAndReleaseAll));
        assertEquals(0, last.refCnt());
        assertEquals(0, out.refCnt());
        assertTrue(ch.inboundMessages().isEmpty());
        assertTrue(ch.outboundMessages().isEmpty());
    }

    @Test
    void releaseInboundAndReleaseOutboundEmptyOnlyTheirOwnQueue() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf in1 = Unpooled.buffer(1).writeByte(1);
        ByteBuf in2 = Unpooled.buffer(1).writeByte(2);
        ByteBuf out = Unpooled.buffer(1).writeByte(3);
        ch.writeInbound(in1, in2);
        ch.writeOutbound(out);
        assertTrue(ch.releaseInbound());
        assertEquals(0, in1.refCnt() + in2.refCnt());
        assertEquals(1, out.refCnt(), "the other direction is untouched");
        assertFalse(ch.releaseInbound(), "nothing left the second time");
        assertTrue(ch.releaseOutbound());
        assertEquals(0, out.refCnt());
        assertFalse(ch.releaseOutbound());
        assertFalse(ch.finish());
    }
}
