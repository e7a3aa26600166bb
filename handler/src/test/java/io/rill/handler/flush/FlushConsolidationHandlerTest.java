package io.rill.handler.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Promise;

class FlushConsolidationHandlerTest {

    /** Counts the flushes that get past the handler under test. */
    static final class FlushCounter implements ChannelHandler {
        int flushes;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }

    /** Answers every inbound message with writeAndFlush, as a request/response server does. */
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }

    private final FlushCounter counter = new FlushCounter();

    private EmbeddedChannel channel(FlushConsolidationHandler handler) {
        EmbeddedChannel ch = new EmbeddedChannel(counter, handler, new Echo());
        counter.flushes = 0;
        return ch;
    }

    private static void readBurst(EmbeddedChannel ch, int messages) {
        for (int i = 0; i < messages; i++) {
            ch.pipeline().fireChannelRead("m" + i);
        }
    }

    @Test
    void flushesOnceAtTheEndOfAReadBurst() {
        EmbeddedChannel ch = channel(new FlushConsolidationHandler());
        readBurst(ch, 10);
        assertEquals(0, counter.flushes);
        assertEquals(0, ch.outboundMessages().size(), "held back, not yet on the wire");
        ch.flushInbound();
        assertEquals(1, counter.flushes);
        assertEquals(10, ch.outboundMessages().size());
        ch.finishAndReleaseAll();
    }

    @Test
    void flushesExplicitlyAfterTheConfiguredNumberOfFlushes() {
        EmbeddedChannel ch = channel(new FlushConsolidationHandler(3));
        readBurst(ch, 7);
        assertEquals(2, counter.flushes);
        assertEquals(6, ch.outboundMessages().size());
        ch.flushInbound();
        assertEquals(3, counter.flushes);
        assertEquals(7, ch.outboundMessages().size());
        ch.finishAndReleaseAll();
    }

    @Test
    void flushesOutsideAReadGoThroughAtOnceByDefault() {
        EmbeddedChannel ch = channel(new FlushConsolidationHandler());
        ch.writeAndFlush("a");
        ch.writeAndFlush("b");
        assertEquals(2, counter.flushes);
        ch.finishAndReleaseAll();
    }

    @Test
    void consolidatesFlushesOutsideAReadWhenAskedTo() {
        EmbeddedChannel ch = channel(new FlushConsolidationHandler(100, true));
        ch.write("a");
        ch.pipeline().flush();
        ch.write("b");
        ch.pipeline().flush();
        assertEquals(0, counter.flushes);
        ch.runPendingTasks();
        assertEquals(1, counter.flushes);
        assertEquals(2, ch.outboundMessages().size());
        ch.finishAndReleaseAll();
    }

    @Test
    void closeFlushesWhatWasHeldBack() {
        EmbeddedChannel ch = channel(new FlushConsolidationHandler());
        readBurst(ch, 2);
        ch.close();
        assertEquals(1, counter.flushes);
        assertEquals(2, ch.outboundMessages().size(), "written before the close");
        ch.finishAndReleaseAll();
    }

    @Test
    void anExceptionFlushesWhatWasHeldBack() {
        EmbeddedChannel ch = new EmbeddedChannel(counter, new FlushConsolidationHandler(), new Echo(),
                new ChannelHandler() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        // swallowed: the test looks only at the flush
                    }
                });
        counter.flushes = 0;
        readBurst(ch, 1);
        ch.pipeline().fireExceptionCaught(new IllegalStateException("expected by test"));
        assertEquals(1, counter.flushes);
        ch.finishAndReleaseAll();
    }

    @Test
    void removalFlushesWhatWasHeldBack() {
        FlushConsolidationHandler handler = new FlushConsolidationHandler();
        EmbeddedChannel ch = channel(handler);
        readBurst(ch, 3);
        ch.pipeline().remove(handler);
        assertEquals(1, counter.flushes);
        assertEquals(3, ch.outboundMessages().size());
        ch.finishAndReleaseAll();
    }

    @Test
    void writesKeepTheirPromises() {
        EmbeddedChannel ch = channel(new FlushConsolidationHandler());
        ch.pipeline().fireChannelRead("x");
        Promise<Void> p = ch.newPromise();
        ch.writeAndFlush("y", p);
        assertFalse(p.isDone());
        ch.flushInbound();
        assertEquals(true, p.isSuccess());
        ch.finishAndReleaseAll();
    }

    @Test
    void rejectsANonPositiveBound() {
        assertThrows(IllegalArgumentException.class, () -> new FlushConsolidationHandler(0));
    }
}
