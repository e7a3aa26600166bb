package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.DefaultEventExecutorGroup;
import io.rill.util.concurrent.Promise;

/** The precomputed next-context routes of {@link EventRoutes}, and dispatch while they change. */
@Timeout(20)
class EventRoutesTest {

    @ChannelHandler.Sharable
    static final class PassThrough implements ChannelHandler {
    }

    /** Records reads under its name and forwards them. */
    static final class Reader implements ChannelHandler {
        final String name;
        final List<String> log;

        Reader(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            log.add(name + ':' + msg);
            ctx.fireChannelRead(msg);
        }
    }

    private static HandlerContext ctx(Channel ch, String name) {
        return (HandlerContext) ch.pipeline().context(name);
    }

    private static HandlerContext route(HandlerContext from, int bit) {
        return from.route(EventRoutes.slot(bit));
    }

    @Test
    void routesSkipHandlersThatDoNotOverrideTheEvent() {
        List<String> log = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("p1", new PassThrough()).addLast("r", new Reader("r", log))
                .addLast("p2", new PassThrough());
        LinkedPipeline pipeline = (LinkedPipeline) ch.pipeline();
        assertSame(ctx(ch, "r"), route(pipeline.head, ChannelHandlerMask.CHANNEL_READ));
        assertSame(pipeline.tail, route(ctx(ch, "r"), ChannelHandlerMask.CHANNEL_READ));
        assertSame(pipeline.tail, route(pipeline.head, ChannelHandlerMask.USER_EVENT));
        assertSame(pipeline.head, route(pipeline.tail, ChannelHandlerMask.WRITE));
        assertSame(pipeline.head, pipeline.tail.route(EventRoutes.WRITE_AND_FLUSH));
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinesOfTheSameShapeShareOneRoutingTable() {
        List<String> log = new ArrayList<>();
        EmbeddedChannel a = new EmbeddedChannel(new PassThrough(), new Reader("r", log));
        EmbeddedChannel b = new EmbeddedChannel(new PassThrough(), new Reader("r", log));
        EventRoutes routesA = ((LinkedPipeline) a.pipeline()).head.routes;
        EventRoutes routesB = ((LinkedPipeline) b.pipeline()).head.routes;
        assertTrue(routesA.sharesTableWith(routesB), "same handler classes, same table");
        assertSame(routesA, ((LinkedPipeline) a.pipeline()).tail.routes, "one routing per pipeline");

        b.pipeline().addFirst("w", new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
                ctx.write(msg, promise);
            }
        });
        EventRoutes changed = ((LinkedPipeline) b.pipeline()).head.routes;
        assertTrue(!changed.sharesTableWith(routesA), "another shape, another table");
        assertSame(routesA, ((LinkedPipeline) a.pipeline()).head.routes, "the other pipeline keeps its routing");
        a.writeInbound("x");
        b.writeInbound("y");
        assertEquals(List.of("r:x", "r:y"), log);
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void writeAndFlushStopsAtAHandlerThatTakesOnlyFlush() {
        List<String> flushes = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("flusher", new ChannelHandler() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes.add("flush");
                ctx.flush();
            }
        }).addLast("p", new PassThrough());
        LinkedPipeline pipeline = (LinkedPipeline) ch.pipeline();
        assertSame(ctx(ch, "flusher"), pipeline.tail.route(EventRoutes.WRITE_AND_FLUSH));
        assertSame(pipeline.head, route(pipeline.tail, ChannelHandlerMask.WRITE));
        ch.writeAndFlush("m");
        assertEquals(List.of("flush"), flushes);
        assertEquals("m", ch.readOutbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void aContextOnAnotherExecutorIsNeverSkipped() throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(1);
        try {
            EmbeddedChannel ch = new EmbeddedChannel();
            ch.pipeline().addLast(group, "elsewhere", new PassThrough()).addLast("p", new PassThrough());
            LinkedPipeline pipeline = (LinkedPipeline) ch.pipeline();
            HandlerContext elsewhere = ctx(ch, "elsewhere");
            assertSame(elsewhere, route(pipeline.head, ChannelHandlerMask.CHANNEL_READ));
            assertSame(elsewhere, route(pipeline.tail, ChannelHandlerMask.WRITE));
            // From "elsewhere", the next context runs on another executor again (the channel's).
            assertSame(ctx(ch, "p"), route(elsewhere, ChannelHandlerMask.CHANNEL_READ));
            ch.finishAndReleaseAll();
        } finally {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void handlerThatRemovesItselfInChannelReadStillForwardsToTheRightNextHandler() {
        List<String> log = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("once", new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                log.add("once:" + msg);
                ctx.pipeline().remove(this);
                ctx.fireChannelRead(msg);
            }
        }).addLast("p", new PassThrough()).addLast("r", new Reader("r", log)).addLast("sink", new Reader("sink", log));
        ch.writeInbound("a");
        ch.writeInbound("b");
        assertEquals(List.of("once:a", "r:a", "sink:a", "r:b", "sink:b"), log);
        ch.finishAndReleaseAll();
    }

    @Test
    void handlersAddedAndRemovedBetweenEventsAreRoutedAtOnce() {
        List<String> log = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new PassThrough());
        ch.pipeline().addLast("r1", new Reader("r1", log));
        ch.writeInbound("a");
        ch.pipeline().addFirst("r0", new Reader("r0", log));
        ch.writeInbound("b");
        ch.pipeline().remove("r1");
        ch.writeInbound("c");
        ch.pipeline().replace("r0", "r2", new Reader("r2", log));
        ch.writeInbound("d");
        assertEquals(List.of("r1:a", "r0:b", "r1:b", "r0:c", "r2:d"), log);
        assertEquals(List.of("a", "b", "c", "d"), List.of(ch.readInbound(), ch.readInbound(), ch.readInbound(),
                ch.readInbound()));
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelineChangedFromAnotherThreadWhileReadsFlowLosesAndReordersNothing() throws Exception {
        try (MultiLoop loop = new MultiLoop()) {
            TestChannel ch = new TestChannel(loop.loop);
            ch.register().sync();
            int messages = 20_000;
            List<Integer> arrived = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            ch.pipeline().addLast("sink", new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    arrived.add((Integer) msg);
                    if (arrived.size() == messages) {
                        done.countDown();
                    }
                }
            });
            ch.eventLoop().execute(() -> {
                for (int i = 0; i < messages; i++) {
                    ch.pipeline().fireChannelRead(i);
                }
            });
            PassThrough shared = new PassThrough();
            for (int i = 0; done.getCount() > 0 && i < 100_000; i++) {
                ch.pipeline().addFirst("x" + i, shared);
                ch.pipeline().addBefore("sink", "y" + i, new Reader("y", new ArrayList<>()));
                ch.pipeline().remove("x" + i);
                ch.pipeline().remove("y" + i);
            }
            assertTrue(done.await(10, TimeUnit.SECONDS));
            for (int i = 0; i < messages; i++) {
                assertEquals(i, arrived.get(i));
            }
            ch.close().sync();
        }
    }

    @Test
    void outboundWriteFromARemovedContextStillReachesTheHead() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("w", new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
                ctx.pipeline().remove(this);
                ctx.write(msg, promise);
            }
        });
        ch.writeOutbound("m");
        assertEquals("m", ch.readOutbound());
        ch.finishAndReleaseAll();
    }
}
