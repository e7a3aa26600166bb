package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.util.RillProperties;

/**
 * EMFILE on accept over edge-triggered epoll (docs/security-cases.md, case L-09): reported once,
 * accepting pauses, and the connection still pending when the pause ends is accepted, though no new
 * edge announces it: re-adding the interest re-arms epoll.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EpollAcceptBackoffTest {

    private EventLoopGroup group;

    @BeforeEach
    void setUp() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable: " + Epoll.unavailabilityCause());
        group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (group != null) {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void acceptFailureIsReportedOncePausesAcceptingThenAcceptsThePendingConnection() throws Exception {
        EventLoop loop = group.next();
        AtomicInteger failuresLeft = new AtomicInteger(1);
        AtomicInteger acceptCalls = new AtomicInteger();
        EpollServerSocketChannel server = new EpollServerSocketChannel(loop, group) {
            @Override
            int acceptFd() throws IOException {
                acceptCalls.incrementAndGet();
                if (failuresLeft.getAndDecrement() > 0) {
                    throw Errors.newException("accept", 24); // EMFILE
                }
                return super.acceptFd();
            }
        };
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                events.add(msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                events.add(cause);
            }
        });
        server.register().sync();
        server.bind(new InetSocketAddress("127.0.0.1", 0)).sync();
        long start = System.nanoTime();
        try (SocketChannel client = SocketChannel.open(server.localAddress())) {
            Object first = events.poll(10, TimeUnit.SECONDS);
            assertTrue(first instanceof NativeIoException e && e.getMessage().contains("Too many open files"),
                    "first event: " + first);
            Object second = events.poll(10, TimeUnit.SECONDS);
            assertTrue(second instanceof Channel, "after the pause the connection is accepted: " + second);
            long pausedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(pausedMillis >= RillProperties.CHANNEL_ACCEPT_BACKOFF_MILLIS / 2, "paused " + pausedMillis + " ms");
            // The failed accept, the one that succeeded, the empty one that ended the burst: no spinning.
            assertEquals(3, (int) loop.submit(acceptCalls::get).get(5, TimeUnit.SECONDS));
            ((Channel) second).close().sync();
        } finally {
            server.close().sync();
        }
    }
}
