package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.util.concurrent.Future;

/**
 * The loop's warm-up of a batch of ready channels (rill.epoll.warmBatch) is only an optimisation:
 * whatever it does, every event of the batch is still handled.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EpollWarmUpTest {

    private static final int CLIENTS = 8;
    private static final int BYTES = 64;

    private EventLoopGroup serverGroup;
    private EventLoopGroup clientGroup;

    @BeforeEach
    void setUp() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        serverGroup = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        clientGroup = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        for (EventLoopGroup g : new EventLoopGroup[] {serverGroup, clientGroup}) {
            if (g != null) {
                assertTrue(g.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
            }
        }
    }

    /** A client channel whose warm-up always throws, as a bug in one would. */
    private static final class BrokenWarmUp extends EpollSocketChannel {
        static final AtomicInteger CALLS = new AtomicInteger();

        BrokenWarmUp(EventLoop loop) {
            super(loop);
        }

        @Override
        int warmUp() {
            CALLS.incrementAndGet();
            throw new IllegalStateException("broken warm-up");
        }
    }

    /** Hands each accepted channel to the test once active. */
    @ChannelHandler.Sharable
    private static final class Collect implements ChannelHandler {
        private final BlockingQueue<Channel> children;

        Collect(BlockingQueue<Channel> children) {
            this.children = children;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            children.add(ctx.channel());
            ctx.fireChannelActive();
        }
    }

    /** Counts the bytes all clients received; opens {@code all} at the total. */
    @ChannelHandler.Sharable
    private static final class Count implements ChannelHandler {
        private final AtomicInteger received;
        private final CountDownLatch all;

        Count(AtomicInteger received, CountDownLatch all) {
            this.received = received;
            this.all = all;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (received.addAndGet(((ByteBuf) msg).readableBytes()) == CLIENTS * BYTES) {
                all.countDown();
            }
            ((ByteBuf) msg).release();
        }
    }

    @Test
    void channelsWhoseWarmUpThrowsStillHaveEveryEventOfTheirBatchHandled() throws Exception {
        BlockingQueue<Channel> children = new LinkedBlockingQueue<>();
        Channel server = new ServerBootstrap().group(serverGroup).channel(EpollServerSocketChannel.class)
                .childHandler(new Collect(children))
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().getNow();
        AtomicInteger received = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(1);
        ChannelHandler counter = new Count(received, all);
        BrokenWarmUp.CALLS.set(0);
        Bootstrap bootstrap = new Bootstrap().group(clientGroup).channelFactory(BrokenWarmUp::new).handler(counter);
        try {
            List<Channel> accepted = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                bootstrap.connect(server.localAddress()).syncUninterruptibly();
                Channel child = children.poll(10, TimeUnit.SECONDS);
                assertTrue(child != null, "accepted");
                accepted.add(child);
            }
            // Hold the clients' loop until every answer has landed, so that one epoll_wait reports them all.
            CountDownLatch landed = new CountDownLatch(1);
            clientGroup.next().execute(() -> {
                try {
                    landed.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (Channel child : accepted) {
                Future<Void> write = child.writeAndFlush(Unpooled.buffer(BYTES).writeZero(BYTES));
                assertTrue(write.await(5, TimeUnit.SECONDS) && write.isSuccess(), "written");
            }
            landed.countDown();
            assertTrue(all.await(10, TimeUnit.SECONDS), "received " + received.get() + " of " + CLIENTS * BYTES + " bytes");
            assertTrue(BrokenWarmUp.CALLS.get() > 0, "the batch was warmed up");
        } finally {
            server.close().await(5, TimeUnit.SECONDS);
        }
    }
}
