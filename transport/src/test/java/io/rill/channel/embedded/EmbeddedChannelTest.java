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
}
