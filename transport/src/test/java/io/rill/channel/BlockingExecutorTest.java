package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Future;

/** {@link BlockingExecutor}: results come back on the channel's loop, in submission order per channel. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlockingExecutorTest {

    private MultiThreadIoEventLoopGroup group;
    private BlockingExecutor blocking;

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("blocking-test", true), NioIoHandler.newFactory());
        blocking = new BlockingExecutor();
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(blocking.close(10, TimeUnit.SECONDS));
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    @Test
    void saysWhetherItUsesVirtualThreads() {
        assertEquals(Runtime.version().feature() >= 21, blocking.usesVirtualThreads(), blocking::toString);
    }

    @Test
    void aLaterResultWaitsForAnEarlierSlowerOne() throws Exception {
        Channel channel = new NioSocketChannel(group.next());
        CountDownLatch secondDone = new CountDownLatch(1);
        List<String> delivered = Collections.synchronizedList(new ArrayList<>());
        List<Future<String>> futures = channel.eventLoop().submit(() -> {
            // The first task finishes only after the second has: its result must still go first.
            Future<String> first = blocking.submit(channel, () -> {
                assertTrue(secondDone.await(10, TimeUnit.SECONDS));
                return "first";
            });
            Future<String> second = blocking.submit(channel, () -> {
                secondDone.countDown();
                return "second";
            });
            for (Future<String> f : List.of(first, second)) {
                f.addListener(done -> {
                    assertTrue(channel.eventLoop().inEventLoop(), "delivered on the channel's loop");
                    delivered.add(done.getNow());
                });
            }
            return List.of(first, second);
        }).get(10, TimeUnit.SECONDS);
        for (Future<String> f : futures) {
            f.await(10, TimeUnit.SECONDS);
        }
        channel.eventLoop().submit(() -> { }).sync(); // listeners of the last one have run
        assertEquals(List.of("first", "second"), delivered);
        channel.close().sync();
    }

    @Test
    void keepsOrderForManyTasksSubmittedFromAnotherThread() throws Exception {
        Channel channel = new NioSocketChannel(group.next());
        List<Integer> delivered = Collections.synchronizedList(new ArrayList<>());
        List<Future<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int n = i;
            Future<Integer> f = blocking.submit(channel, () -> n);
            f.addListener(done -> delivered.add(done.getNow()));
            futures.add(f);
        }
        futures.get(futures.size() - 1).await(10, TimeUnit.SECONDS);
        channel.eventLoop().submit(() -> { }).sync(); // listeners of the last one have run
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            expected.add(i);
        }
        assertEquals(expected, delivered);
        channel.close().sync();
    }

    @Test
    void deliversWhatTheTaskThrewInItsTurn() throws Exception {
        Channel channel = new NioSocketChannel(group.next());
        IOException boom = new IOException("database down");
        Future<Object> failed = blocking.submit(channel, () -> {
            throw boom;
        });
        assertTrue(failed.await(10, TimeUnit.SECONDS));
        assertSame(boom, failed.cause());
        channel.close().sync();
    }

    @Test
    void refusesTasksBeyondItsBound() throws Exception {
        BlockingExecutor small = new BlockingExecutor(1, 1);
        Channel channel = new NioSocketChannel(group.next());
        CountDownLatch release = new CountDownLatch(1);
        try {
            // Both from the loop, where submit() takes its place at once: the first holds the one
            // place until released, so the second is refused whatever the threads do meanwhile.
            List<Future<?>> both = channel.eventLoop().submit(() -> List.<Future<?>>of(
                    small.submit(channel, () -> release.await(10, TimeUnit.SECONDS)),
                    small.submit(channel, () -> "never"))).get(10, TimeUnit.SECONDS);
            Future<?> holding = both.get(0);
            Future<?> refused = both.get(1);
            release.countDown();
            assertTrue(holding.await(10, TimeUnit.SECONDS));
            assertTrue(refused.await(10, TimeUnit.SECONDS));
            assertInstanceOf(RejectedExecutionException.class, refused.cause());
            assertTrue(refused.cause().getMessage().contains("rill.blocking.maxPendingTasks"));
        } finally {
            release.countDown();
            assertTrue(small.close(10, TimeUnit.SECONDS));
            channel.close().sync();
        }
    }
}
