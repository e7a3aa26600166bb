package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Promise;

/**
 * The virtual-thread claim: {@code http-blocking} on ONE event loop serves 10,000
 * concurrent requests that each block 10 s server-side, all pending at once and all answered
 * within 30 s (a pool of 64 platform threads would need 10,000 × 10 s / 64, 26 minutes), and while
 * they wait the loop answers a {@code /fast} request on a connection of its own promptly: the
 * blocking never pins the loop.
 *
 * <p>The server runs in a JVM of its own with virtual threads: this JDK if it is 21+, else Temurin
 * 25 at {@value #JDK25} (installed in CI), else the test is skipped. The client (10,000 sockets) is
 * this JVM, so each process needs about 10,000 descriptors.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpBlockingServerTest {

    static final String JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64";
    private static final int REQUESTS = 10_000;
    /** Longer than opening 10,000 connections takes (about 4 s here), so all of them wait at once. */
    private static final int DELAY_MILLIS = 10_000;
    /** Connection attempts in flight at once: enough to open 10,000 in a few seconds, few enough for the backlog (1024). */
    private static final int CONNECTS_IN_FLIGHT = 512;
    /** "Promptly": a tenth of the slow delay; measured 36 to 132 ms on 2 shared cores. Pinned, it would be 10 s. */
    private static final int FAST_MILLIS = 1_000;

    @Test
    void servesTenThousandSlowRequestsOnOneLoopWhileAFastOneStaysFast() throws Exception {
        Path java = javaWithVirtualThreads();
        assumeTrue(java != null, "needs JDK 21+ for the server: run on it, or install Temurin 25 at " + JDK25);
        long limit = descriptorLimit();
        assumeTrue(limit >= REQUESTS + 1_000, "needs " + (REQUESTS + 1_000) + " descriptors; the limit is " + limit);

        MultiThreadIoEventLoopGroup clients = new MultiThreadIoEventLoopGroup(1,
                new DefaultThreadFactory("blocking-load-client", true), NioIoHandler.newFactory());
        try (ForkedExample server = ForkedExample.withJava(java, "http-blocking", "--port", "0", "--threads", "1",
                "--transport", "nio", "--delay-ms", Integer.toString(DELAY_MILLIS))) {
            assertTrue(server.awaitLog("blocking calls run on virtual threads", 10, TimeUnit.SECONDS)
                    .contains("virtual threads"), server::stderr);
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
            Load load = new Load(clients, address);

            Channel fastConnection = load.connectFast();
            long start = System.nanoTime();
            load.sendAll();
            assertTrue(load.allSent.await(30, TimeUnit.SECONDS), "requests sent: " + load.sent + "; " + load.failures);
            // All 10,000 slow requests wait on virtual threads now; a fast one on its own connection:
            int pendingAtFast = load.sent.get() - (REQUESTS - (int) load.answered.getCount());
            long fastNanos = load.fastRequest(fastConnection);
            assertTrue(load.answered.await(60, TimeUnit.SECONDS),
                    load.answered.getCount() + " slow requests unanswered; failures: " + load.failures);
            long totalMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            System.out.printf("http-blocking: %,d requests blocking %d ms each answered in %,d ms on one event loop;"
                            + " /fast took %.1f ms with %,d slow requests pending (peak pending %,d)%n",
                    REQUESTS, DELAY_MILLIS, totalMillis, fastNanos / 1e6, pendingAtFast, load.peakPending.get());
            assertTrue(load.failures.isEmpty(), () -> "failures: " + load.failures);
            assertTrue(totalMillis < 30_000, "took " + totalMillis + " ms");
            assertEquals(REQUESTS, load.peakPending.get(), "slow requests pending at once");
            assertEquals(REQUESTS, pendingAtFast, "slow requests pending when /fast was sent");
            assertTrue(fastNanos < TimeUnit.MILLISECONDS.toNanos(FAST_MILLIS),
                    "/fast took " + fastNanos / 1_000_000 + " ms");
        } finally {
            clients.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
    }

    /** The clients: one connection per slow request, each closed once answered, and one for the fast request. */
    private static final class Load {
        final CountDownLatch answered = new CountDownLatch(REQUESTS);
        final CountDownLatch allSent = new CountDownLatch(REQUESTS);
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger peakPending = new AtomicInteger();
        final Queue<String> failures = new ConcurrentLinkedQueue<>();
        private final MultiThreadIoEventLoopGroup group;
        private final InetSocketAddress address;
        private final Semaphore connects = new Semaphore(CONNECTS_IN_FLIGHT);
        /** Completed with System.nanoTime() when the fast answer arrives. */
        private volatile Promise<Long> fastAnswer;

        Load(MultiThreadIoEventLoopGroup group, InetSocketAddress address) {
            this.group = group;
            this.address = address;
        }

        void sendAll() throws InterruptedException {
            Bootstrap slow = client(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1024), new SlowClient());
                }
            });
            for (int i = 0; i < REQUESTS; i++) {
                assertTrue(connects.tryAcquire(30, TimeUnit.SECONDS), "connects stalled; failures: " + failures);
                slow.connect(address).addListener(f -> {
                    connects.release();
                    if (!f.isSuccess()) {
                        failures.add("connect: " + f.cause());
                        allSent.countDown();
                        answered.countDown();
                    }
                });
            }
        }

        /** The connection of the fast request, opened before the load so that only the request is timed. */
        Channel connectFast() throws InterruptedException {
            return client(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1024), new FastClient());
                }
            }).connect(address).sync().getNow();
        }

        /** Sends GET /fast on {@code connection} and returns the time to its answer. */
        long fastRequest(Channel connection) throws Exception {
            Promise<Long> done = connection.eventLoop().newPromise();
            fastAnswer = done;
            long start = System.nanoTime();
            connection.writeAndFlush(get("/fast"));
            long took = done.get(30, TimeUnit.SECONDS) - start;
            connection.close().sync();
            return took;
        }

        private Bootstrap client(ChannelInitializer<Channel> initializer) {
            return new Bootstrap().group(group).channel(NioSocketChannel.class).handler(initializer);
        }

        private static FullHttpRequest get(String path) {
            FullHttpRequest get = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
            get.headers().set(HttpHeaderNames.HOST, "127.0.0.1");
            return get;
        }

        /** The body of {@code msg} if it is a 200 answer saying {@code expected}; records a failure otherwise. */
        private void check(Object msg, String expected) {
            FullHttpResponse response = (FullHttpResponse) msg;
            try {
                String body = response.content().toString(StandardCharsets.US_ASCII);
                if (response.status().code() != 200 || !body.equals(expected)) {
                    failures.add(response.status() + " " + body);
                }
            } finally {
                response.release();
            }
        }

        /** Sends GET /slow once connected; counts the answer and closes. */
        private final class SlowClient implements ChannelHandler {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.writeAndFlush(get("/slow"));
                int pending = sent.incrementAndGet() - (REQUESTS - (int) answered.getCount());
                peakPending.accumulateAndGet(pending, Math::max);
                allSent.countDown();
                ctx.fireChannelActive();
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                check(msg, "slow /slow\n");
                answered.countDown();
                ctx.close();
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                failures.add(cause.toString());
                ctx.close();
            }
        }

        /** Notes when the fast answer arrives. */
        private final class FastClient implements ChannelHandler {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                long now = System.nanoTime();
                check(msg, "fast\n");
                fastAnswer.trySuccess(now);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                failures.add("fast: " + cause);
                fastAnswer.tryFailure(cause);
                ctx.close();
            }
        }
    }

    /** A {@code java} launcher of JDK 21+, or null. */
    private static Path javaWithVirtualThreads() {
        if (Runtime.version().feature() >= 21) {
            return Path.of(System.getProperty("java.home"), "bin", "java");
        }
        Path jdk25 = Path.of(JDK25, "bin", "java");
        return Files.isExecutable(jdk25) ? jdk25 : null;
    }

    /** This process's limit on open files (the JVM raised it to the hard limit at start). */
    private static long descriptorLimit() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
            }
        }
        return 0;
    }
}
