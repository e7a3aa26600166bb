package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.Unpooled;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Promise;

/** The figures of {@link EventLoopMetrics} and {@link ChannelMetrics}, read after real socket traffic. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EventLoopMetricsTest {

    private MultiThreadIoEventLoopGroup group;
    private SingleThreadIoEventLoop loop;

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("metrics-test", true), NioIoHandler.newFactory());
        loop = (SingleThreadIoEventLoop) group.next();
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    @Test
    void groupListsTheMetricsOfEachLoop() {
        List<EventLoopMetrics> all = group.metrics();
        assertEquals(1, all.size());
        assertSame(loop.metrics(), all.get(0));
    }

    @Test
    void countsOpenAcceptedAndClosedChannelsAndIoEvents() throws Exception {
        ChannelMetrics channels = loop.metrics().channels();
        Promise<Channel> accepted = loop.newPromise();
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.trySuccess(ch);
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelHandler() { })
                .connect(server.localAddress()).sync().getNow();
        Channel child = accepted.get(10, TimeUnit.SECONDS);
        awaitOnLoop(); // the child registers in a task after initChannel
        assertEquals(3, channels.openChannels(), channels::toString); // listener, client, accepted child
        assertEquals(1, channels.acceptedChannels());
        assertTrue(loop.metrics().ioEvents() >= 1, loop.metrics()::toString); // at least the accept

        client.close().sync();
        assertTrue(child.closeFuture().await(10, TimeUnit.SECONDS)); // the child reads EOF and closes
        server.close().sync();
        assertEquals(0, channels.openChannels(), channels::toString);
        assertEquals(3, channels.closedChannels());
        assertEquals(3, channels.registeredChannels());
    }

    @Test
    void countsEachWritabilityFlip() throws Exception {
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelHandler() { }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelHandler() { })
                .connect(server.localAddress()).sync().getNow();
        client.config().setWriteBufferWaterMark(new WriteBufferWaterMark(4, 8));
        long before = loop.metrics().channels().writabilityChanges();
        loop.submit(() -> {
            client.write(Unpooled.wrappedBuffer(new byte[16])); // over the high mark: unwritable
            assertTrue(!client.isWritable());
            client.flush(); // written out: below the low mark again
        }).sync();
        assertTrue(client.isWritable());
        assertEquals(before + 2, loop.metrics().channels().writabilityChanges());
        client.close().sync();
        server.close().sync();
    }

    @Test
    void measuresTimeInTasksAndSeesPendingOnes() throws Exception {
        EventLoopMetrics metrics = loop.metrics();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        loop.execute(() -> {
            holding.countDown();
            try {
                release.await(10, TimeUnit.SECONDS); // holds the loop so the next tasks queue up
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(holding.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < 5; i++) {
            loop.execute(() -> { });
        }
        assertEquals(5, metrics.pendingTasks());
        long before = metrics.taskNanos();
        release.countDown();
        // The time is added once the batch of tasks ends, after the last of them completed its future.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (metrics.taskNanos() == before && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertTrue(metrics.taskNanos() > before, metrics::toString);
        assertEquals(0, metrics.pendingTasks());
    }

    @Test
    void leavesTheWaitForIoOutOfTheBusyTime() throws Exception {
        EventLoopMetrics metrics = loop.metrics();
        loop.submit(() -> { }).sync(); // started
        long busyBefore = metrics.busyNanos();
        long start = System.nanoTime();
        // Nothing to do for 300 ms: the loop waits in select() until the scheduled task is due.
        loop.schedule(() -> { }, 300, TimeUnit.MILLISECONDS).sync();
        loop.submit(() -> { }).sync(); // the turn that ran it has been counted
        long elapsed = System.nanoTime() - start;
        long busy = metrics.busyNanos() - busyBefore;
        assertTrue(elapsed >= TimeUnit.MILLISECONDS.toNanos(300));
        assertTrue(busy < TimeUnit.MILLISECONDS.toNanos(150), "busy " + busy / 1_000 + " µs of " + elapsed / 1_000);
        assertTrue(metrics.busyNanos() >= metrics.taskNanos(), metrics::toString);
    }

    private void awaitOnLoop() throws InterruptedException {
        loop.submit(() -> { }).sync();
    }
}
