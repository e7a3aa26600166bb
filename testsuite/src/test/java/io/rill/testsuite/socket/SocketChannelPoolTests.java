package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.pool.AbstractChannelPoolMap;
import io.rill.channel.pool.AcquireTimeoutException;
import io.rill.channel.pool.ChannelPoolClosedException;
import io.rill.channel.pool.ChannelPoolHandler;
import io.rill.channel.pool.FixedChannelPool;
import io.rill.channel.pool.FixedChannelPool.AcquireTimeoutAction;
import io.rill.channel.pool.PendingAcquireLimitException;
import io.rill.channel.pool.SimpleChannelPool;
import io.rill.util.concurrent.Future;

/** Channel pools over real connections: reuse, health, limits, timeouts, idle eviction, close, misuse. */
abstract class SocketChannelPoolTests extends AbstractSocketTest {

    /** Counts the channels the pool made; each gets a collector so the server's bytes are released. */
    private final class CountingHandler implements ChannelPoolHandler {
        final AtomicInteger created = new AtomicInteger();
        final AtomicInteger acquired = new AtomicInteger();
        final AtomicInteger released = new AtomicInteger();

        @Override
        public void channelCreated(Channel channel) {
            created.incrementAndGet();
            channel.pipeline().addLast(new ByteCollector());
            track(channel);
        }

        @Override
        public void channelAcquired(Channel channel) {
            acquired.incrementAndGet();
        }

        @Override
        public void channelReleased(Channel channel) {
            released.incrementAndGet();
        }
    }

    private final CountingHandler handler = new CountingHandler();

    private BlockingQueue<Channel> accepted;

    private SimpleChannelPool.Builder simple() {
        accepted = startServerCollectingChildren(serverBootstrap(), new EchoHandler());
        return simpleTo(startedServer.localAddress());
    }

    private SimpleChannelPool.Builder simpleTo(SocketAddress address) {
        return SimpleChannelPool.builder(clientBootstrap().remoteAddress(address), group.next(), handler);
    }

    @Test
    void acquireAfterReleaseReusesTheSameChannel() throws Exception {
        SimpleChannelPool pool = simple().build();
        Channel first = await(pool.acquire());
        assertTrue(first.isActive());
        await(pool.release(first));
        Channel second = await(pool.acquire());
        assertSame(first, second);
        assertEquals(1, handler.created.get());
        assertEquals(2, handler.acquired.get());
        assertEquals(1, handler.released.get());
        take(accepted);
        assertTrue(accepted.isEmpty(), "one connection reached the server");
        await(pool.release(second));
        await(pool.closeAsync());
    }

    @Test
    void idleChannelsAreLentLastInFirstOutByDefaultAndFifoWhenAsked() {
        SimpleChannelPool lifo = simple().build();
        Channel a = await(lifo.acquire());
        Channel b = await(lifo.acquire());
        await(lifo.release(a));
        await(lifo.release(b));
        assertSame(b, await(lifo.acquire()));

        SimpleChannelPool fifo = simpleTo(startedServer.localAddress()).lifo(false).build();
        Channel c = await(fifo.acquire());
        Channel d = await(fifo.acquire());
        await(fifo.release(c));
        await(fifo.release(d));
        assertSame(c, await(fifo.acquire()));
        await(lifo.closeAsync());
        await(fifo.closeAsync());
    }

    @Test
    void aChannelClosedWhileIdleIsNotHandedOut() {
        SimpleChannelPool pool = simple().build();
        Channel first = await(pool.acquire());
        await(pool.release(first));
        await(first.close());
        Channel second = await(pool.acquire());
        assertNotSame(first, second);
        assertTrue(second.isActive());
        await(pool.closeAsync());
    }

    @Test
    void anIdleChannelFailingTheHealthCheckIsClosedAndAnotherConnected() {
        Set<Channel> sick = ConcurrentHashMap.newKeySet();
        SimpleChannelPool pool = simple()
                .healthChecker(ch -> ch.eventLoop().newSucceededFuture(!sick.contains(ch))).build();
        Channel first = await(pool.acquire());
        await(pool.release(first));
        sick.add(first);
        Channel second = await(pool.acquire());
        assertNotSame(first, second);
        assertTrue(first.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "the unhealthy channel is closed");
        await(pool.closeAsync());
    }

    @Test
    void healthCheckOnReleaseClosesAnUnhealthyChannelInsteadOfKeepingIt() {
        Set<Channel> sick = ConcurrentHashMap.newKeySet();
        SimpleChannelPool pool = simple().healthCheckOnRelease(true)
                .healthChecker(ch -> ch.eventLoop().newSucceededFuture(!sick.contains(ch))).build();
        Channel first = await(pool.acquire());
        sick.add(first);
        await(pool.release(first));
        assertTrue(first.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, await(pool.idleCount()));
        await(pool.closeAsync());
    }

    @Test
    void aFixedPoolLendsAtMostMaxConnectionsAndHandsAFreedSlotToTheOldestWaiter() {
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(2).build();
        Channel a = await(pool.acquire());
        Channel b = await(pool.acquire());
        Future<Channel> third = pool.acquire();
        Future<Channel> fourth = pool.acquire();
        assertEquals(2, await(pool.pendingAcquireCount()));
        assertFalse(third.isDone());
        await(pool.release(a));
        assertSame(a, await(third), "the freed channel goes to the oldest waiter");
        assertFalse(fourth.isDone());
        await(pool.release(b));
        assertSame(b, await(fourth));
        assertEquals(2, handler.created.get());
        assertEquals(2, await(pool.acquiredCount()));
        await(pool.closeAsync());
    }

    /** docs/security-cases.md, case CL-01. */
    @Test
    void cl_01_anAcquireBeyondMaxPendingAcquiresFailsNamingTheLimit() {
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(1).maxPendingAcquires(1).build();
        Channel a = await(pool.acquire());
        Future<Channel> waiting = pool.acquire();
        Throwable refused = awaitFailure(pool.acquire());
        assertInstanceOf(PendingAcquireLimitException.class, refused);
        assertTrue(refused.getMessage().contains("maxPendingAcquires (1)"), refused.getMessage());
        await(pool.release(a));
        assertSame(a, await(waiting));
        await(pool.closeAsync());
    }

    @Test
    void aCancelledWaiterLeavesTheQueueAndFreesItsPendingPlace() {
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(1).maxPendingAcquires(1).build();
        Channel a = await(pool.acquire());
        Future<Channel> cancelled = pool.acquire();
        assertEquals(1, await(pool.pendingAcquireCount()));
        assertTrue(cancelled.cancel(false));
        assertEquals(0, await(pool.pendingAcquireCount()));
        Future<Channel> next = pool.acquire(); // the limit of one pending acquire has room again
        await(pool.release(a));
        assertSame(a, await(next));
        await(pool.closeAsync());
    }

    @Test
    void anAcquireTimeoutWithFailFailsTheWaiterNamingTheTimeout() {
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(1)
                .acquireTimeout(Duration.ofMillis(100), AcquireTimeoutAction.FAIL).build();
        Channel a = await(pool.acquire());
        Throwable cause = awaitFailure(pool.acquire());
        assertInstanceOf(AcquireTimeoutException.class, cause);
        assertTrue(cause.getMessage().contains("acquireTimeout (100 ms"), cause.getMessage());
        assertEquals(0, await(pool.pendingAcquireCount()));
        await(pool.release(a));
        assertSame(a, await(pool.acquire()), "the timed-out waiter did not take the slot");
        await(pool.closeAsync());
    }

    @Test
    void anAcquireTimeoutWithNewConnectsBeyondTheLimit() {
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(1)
                .acquireTimeout(Duration.ofMillis(50), AcquireTimeoutAction.NEW).build();
        Channel a = await(pool.acquire());
        Channel b = await(pool.acquire());
        assertNotSame(a, b);
        assertEquals(2, await(pool.acquiredCount()));
        await(pool.release(a));
        await(pool.release(b));
        assertEquals(0, await(pool.acquiredCount()));
        await(pool.closeAsync());
    }

    @Test
    void aChannelIdleForTheIdleTimeoutIsClosedAndNotLentAgain() {
        SimpleChannelPool pool = simple().idleTimeout(Duration.ofMillis(100)).build();
        Channel first = await(pool.acquire());
        await(pool.release(first));
        assertTrue(first.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "evicted after its idle timeout");
        assertEquals(0, await(pool.idleCount()));
        Channel second = await(pool.acquire());
        assertNotSame(first, second);
        await(pool.release(second));
        await(pool.closeAsync());
    }

    @Test
    void aChannelLentAgainBeforeItsIdleTimeoutIsNotEvicted() {
        SimpleChannelPool pool = simple().idleTimeout(Duration.ofMillis(100)).build();
        Channel ch = await(pool.acquire());
        await(pool.release(ch));
        assertSame(ch, await(pool.acquire()));
        Channel later = await(pool.acquire());
        await(pool.release(later));
        // The pool's timers run in deadline order on one executor: once the later channel is
        // evicted, the first one's cancelled deadline has long passed.
        assertTrue(later.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertTrue(ch.isOpen(), "re-lent before its idle timeout, it stays open");
        await(pool.release(ch));
        await(pool.closeAsync());
    }

    @Test
    void closingThePoolClosesIdleChannelsAndFailsLaterAcquires() {
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(2).build();
        Channel lentOut = await(pool.acquire());
        Channel idle = await(pool.acquire());
        await(pool.release(idle));
        await(pool.closeAsync());
        assertFalse(idle.isOpen(), "the idle channel is closed with the pool");
        assertTrue(lentOut.isOpen(), "a lent channel stays with its owner");
        Throwable cause = awaitFailure(pool.acquire());
        assertInstanceOf(ChannelPoolClosedException.class, cause);
        assertTrue(cause.getMessage().contains("is closed"), cause.getMessage());
        await(pool.release(lentOut));
        assertTrue(lentOut.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "released after the close, it is closed");
    }

    @Test
    void aWaiterStillQueuedWhenTheFixedPoolClosesFails() {
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(1).build();
        Channel a = await(pool.acquire());
        Future<Channel> waiting = pool.acquire();
        await(pool.closeAsync());
        Throwable cause = awaitFailure(waiting);
        assertInstanceOf(ChannelPoolClosedException.class, cause);
        assertTrue(cause.getMessage().contains("closed while the acquire waited"), cause.getMessage());
        await(pool.release(a));
    }

    @Test
    void releasingAForeignOrAlreadyReleasedChannelFailsWithIllegalArgumentException() {
        SimpleChannelPool pool = simple().build();
        SimpleChannelPool otherPool = simpleTo(startedServer.localAddress()).build();
        Channel foreign = connect(startedServer, new ByteCollector());
        Throwable cause = awaitFailure(pool.release(foreign));
        assertInstanceOf(IllegalArgumentException.class, cause);
        assertTrue(cause.getMessage().contains("was not acquired from"), cause.getMessage());
        assertTrue(foreign.isOpen(), "someone else's channel is left alone");

        Channel fromOther = await(otherPool.acquire());
        assertInstanceOf(IllegalArgumentException.class, awaitFailure(pool.release(fromOther)));

        Channel mine = await(pool.acquire());
        await(pool.release(mine));
        Throwable twice = awaitFailure(pool.release(mine));
        assertInstanceOf(IllegalArgumentException.class, twice);
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());

        FixedChannelPool fixed = FixedChannelPool.builder(simpleTo(startedServer.localAddress())).build();
        Throwable notLent = awaitFailure(fixed.release(foreign));
        assertInstanceOf(IllegalArgumentException.class, notLent);
        assertTrue(notLent.getMessage().contains("is not lent by"), notLent.getMessage());
        await(pool.closeAsync());
        await(otherPool.closeAsync());
        await(fixed.closeAsync());
    }

    @Test
    void aConnectFailureFailsTheAcquireAndFreesItsSlot() throws IOException {
        SocketAddress nobody;
        if (transport.isInet()) {
            try (ServerSocketChannel s = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
                nobody = s.getLocalAddress();
            }
        } else {
            nobody = transport.bindAddress().get();
        }
        FixedChannelPool pool = FixedChannelPool.builder(simpleTo(nobody)).maxConnections(1).build();
        Future<Channel> first = pool.acquire();
        Future<Channel> second = pool.acquire(); // waits for the slot the first one holds while connecting
        assertInstanceOf(IOException.class, awaitFailure(first));
        assertInstanceOf(IOException.class, awaitFailure(second), "the freed slot let the waiter try");
        assertEquals(0, await(pool.acquiredCount()));
        assertEquals(0, await(pool.pendingAcquireCount()));
        await(pool.closeAsync());
    }

    @Test
    void manyThreadsShareAFixedPoolWithoutExceedingItsLimit() throws Exception {
        int max = 3;
        int threads = 6;
        int rounds = 40;
        FixedChannelPool pool = FixedChannelPool.builder(simple()).maxConnections(max).build();
        AtomicInteger lentNow = new AtomicInteger();
        AtomicInteger mostLent = new AtomicInteger();
        List<Throwable> errors = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(threads);
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        try {
            for (int t = 0; t < threads; t++) {
                workers.execute(() -> {
                    try {
                        for (int i = 0; i < rounds; i++) {
                            Channel ch = await(pool.acquire());
                            mostLent.accumulateAndGet(lentNow.incrementAndGet(), Math::max);
                            await(ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) i})));
                            lentNow.decrementAndGet();
                            await(pool.release(ch));
                        }
                    } catch (Throwable e) {
                        synchronized (errors) {
                            errors.add(e);
                        }
                    } finally {
                        done.countDown();
                    }
                });
            }
            assertTrue(done.await(TIMEOUT_SECONDS * 3, TimeUnit.SECONDS), "the workers finished");
        } finally {
            workers.shutdownNow();
        }
        assertTrue(errors.isEmpty(), () -> "errors: " + errors);
        assertTrue(mostLent.get() <= max, "at most " + max + " lent at once, saw " + mostLent.get());
        assertTrue(handler.created.get() <= max, "at most " + max + " connections, made " + handler.created.get());
        assertEquals(threads * rounds, handler.acquired.get());
        assertEquals(0, await(pool.acquiredCount()));
        await(pool.closeAsync());
    }

    @Test
    void aPoolMapKeepsOnePoolPerKeyAndClosingItClosesThem() {
        simple(); // starts the first server
        SocketAddress one = startedServer.localAddress();
        startServer(new EchoHandler());
        SocketAddress two = startedServer.localAddress();
        AbstractChannelPoolMap<SocketAddress, SimpleChannelPool> pools = new AbstractChannelPoolMap<>() {
            @Override
            protected SimpleChannelPool newPool(SocketAddress key) {
                return simpleTo(key).build();
            }
        };
        SimpleChannelPool first = pools.get(one);
        assertSame(first, pools.get(one));
        SimpleChannelPool second = pools.get(two);
        assertNotSame(first, second);
        assertEquals(2, pools.size());
        Channel ch = await(second.acquire());
        assertEquals(two, ch.remoteAddress());
        await(second.release(ch));
        pools.close();
        assertTrue(ch.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "closing the map closed the pools and their idle channels");
        assertInstanceOf(ChannelPoolClosedException.class, awaitFailure(first.acquire()));
        assertFalse(pools.contains(one));
    }
}
