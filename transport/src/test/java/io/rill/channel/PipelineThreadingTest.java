package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.util.concurrent.DefaultEventExecutorGroup;
import io.rill.util.concurrent.EventExecutor;

/** Pipelines on a real event loop, with handlers bound to another executor group. */
class PipelineThreadingTest {

    private final MultiLoop loop = new MultiLoop();
    private final DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(2);

    @AfterEach
    void stop() throws Exception {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        loop.close();
    }

    /** Records (thread, message) and passes messages on. */
    static final class ThreadRecorder implements ChannelHandler {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final List<Boolean> onOwnExecutor = new CopyOnWriteArrayList<>();
        volatile boolean addedBeforeFirstEvent;
        volatile boolean added;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            added = true;
            onOwnExecutor.add(ctx.executor().inEventLoop());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (seen.isEmpty()) {
                addedBeforeFirstEvent = added;
            }
            seen.add(String.valueOf(msg));
            onOwnExecutor.add(ctx.executor().inEventLoop());
            ctx.fireChannelRead(msg);
        }
    }

    @Test
    void handlersBoundToAnExecutorGroupRunThereAndKeepOrder() throws Exception {
        TestChannel ch = new TestChannel(loop.loop);
        ch.register().sync();
        ThreadRecorder onGroup = new ThreadRecorder();
        ThreadRecorder onLoop = new ThreadRecorder();
        CountDownLatch done = new CountDownLatch(100);
        List<String> arrived = new CopyOnWriteArrayList<>();
        ch.pipeline().addLast(group, "onGroup", onGroup).addLast("onLoop", onLoop).addLast("sink", new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                arrived.add(String.valueOf(msg));
                done.countDown();
            }
        });
        EventExecutor groupExecutor = ch.pipeline().context("onGroup").executor();
        assertTrue(groupExecutor != loop.loop);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add("m" + i);
            ch.pipeline().fireChannelRead("m" + i);
        }
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(expected, onGroup.seen);
        assertEquals(expected, arrived);
        assertTrue(onGroup.addedBeforeFirstEvent);
        assertTrue(onGroup.onOwnExecutor.stream().allMatch(b -> b), "every call on the group's executor");
        assertTrue(onLoop.onOwnExecutor.stream().allMatch(b -> b), "every call on the channel's loop");
        ch.close().sync();
    }

    @Test
    void tailReleasesUnhandledReferenceCountedMessages() throws Exception {
        TestChannel ch = new TestChannel(loop.loop);
        ch.register().sync();
        ByteBuf buf = Unpooled.directBuffer(16).writeLong(1);
        ch.pipeline().fireChannelRead(buf); // from the test thread: hops onto the loop, ends at the tail
        loop.loop.submit(() -> { }).sync(); // runs after the event
        assertEquals(0, buf.refCnt());
        ch.close().sync();
    }

    @Test
    void exceptionsReachingTheTailAreLoggedAndTheChannelCarriesOn() throws Exception {
        TestChannel ch = new TestChannel(loop.loop);
        ch.register().sync();
        ch.pipeline().fireExceptionCaught(new IllegalStateException("expected in this test: logged at warn"));
        loop.loop.submit(() -> { }).sync();
        assertTrue(ch.isOpen());
        ch.close().sync();
    }

    @Test
    void lifecycleEventsFireOnceInOrderAndCloseFutureCompletes() throws Exception {
        TestChannel ch = new TestChannel(loop.loop);
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch unregistered = new CountDownLatch(1);
        ch.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRegistered(ChannelHandlerContext ctx) {
                events.add("registered");
            }

            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                events.add("active");
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                events.add("inactive");
            }

            @Override
            public void channelUnregistered(ChannelHandlerContext ctx) {
                events.add("unregistered");
                unregistered.countDown();
            }
        });
        ch.register().sync();
        ch.close();
        ch.close();
        assertTrue(ch.closeFuture().await(5, TimeUnit.SECONDS));
        assertTrue(unregistered.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("registered", "active", "inactive", "unregistered"), events);
    }
}
