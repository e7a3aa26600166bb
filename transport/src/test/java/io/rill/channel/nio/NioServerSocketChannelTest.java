package io.rill.channel.nio;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoop;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.util.RillProperties;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * The accept loop's reaction to EMFILE (docs/security-cases.md, case L-09): report once, back off,
 * never spin. "Never spin" is shown by the accept count: during the pause accept() is not called at
 * all. (The loop-CPU check lives in the testsuite; this module's tests run inside its JPMS module,
 * which does not read java.management.)
 */
@Timeout(30)
class NioServerSocketChannelTest {

    private final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("accept-test", true), NioIoHandler.newFactory());

    @AfterEach
    void stop() {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
    }

    @Test
    void acceptFailureIsReportedOncePausesAcceptingThenAcceptsThePendingConnection() throws Exception {
        EventLoop loop = group.next();
        AtomicInteger failuresLeft = new AtomicInteger(1);
        AtomicInteger acceptCalls = new AtomicInteger();
        NioServerSocketChannel server = new NioServerSocketChannel(loop, group) {
            @Override
            protected SocketChannel acceptSocket() throws IOException {
                acceptCalls.incrementAndGet();
                if (failuresLeft.getAndDecrement() > 0) {
                    throw new IOException("Too many open files (simulated)");
                }
                return super.acceptSocket();
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
            assertTrue(first instanceof IOException, "first event: " + first);
            Object second = events.poll(10, TimeUnit.SECONDS);
            assertTrue(second instanceof Channel, "after the pause the connection is accepted: " + second);
            long pausedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(pausedMillis >= RillProperties.CHANNEL_ACCEPT_BACKOFF_MILLIS / 2, "paused " + pausedMillis + " ms");
            // Read on the loop, after the burst: the failed accept, the one that succeeded, the empty one ending the burst.
            assertEquals(3, (int) loop.submit(acceptCalls::get).get(5, TimeUnit.SECONDS),
                    "accept() was retried during the pause");
            ((Channel) second).close().sync();
        } finally {
            server.close().sync();
        }
    }
}
