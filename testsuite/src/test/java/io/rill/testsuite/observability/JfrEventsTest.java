package io.rill.testsuite.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpRequestRecorder;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslProvider;
import io.rill.handler.ssl.util.SelfSignedCertificate;
import io.rill.util.LeakDetectionExtension;
import io.rill.util.LeaksExpected;
import io.rill.util.ResourceLeakDetector;
import io.rill.util.ResourceLeakTracker;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.ManualTicker;
import io.rill.util.concurrent.Promise;

/**
 * Rill's JFR events, each recorded with {@link Recording}, dumped, read back with
 * {@link RecordingFile} and checked field by field. The connection, TLS and HTTP events come from a
 * real HTTPS exchange over NIO sockets, with each TLS provider available (JDK; OPENSSL with netty-tcnative).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JfrEventsTest {

    private static final SelfSignedCertificate CERT = new SelfSignedCertificate();

    private MultiThreadIoEventLoopGroup group;
    /** Closed after each test: an OPENSSL context holds native memory until closed. */
    private final List<SslContext> contexts = new ArrayList<>();

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("jfr-test", true), NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        contexts.forEach(SslContext::close);
    }

    @ParameterizedTest
    @EnumSource(SslProvider.class)
    void recordsConnectionTlsHandshakeAndHttpRequestOverSockets(SslProvider provider) throws Exception {
        assumeTrue(provider.isAvailable(), provider + " is not available here");
        List<RecordedEvent> events;
        InetSocketAddress serverAddress;
        String clientLocal;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.ConnectionAccepted");
            recording.enable("io.rill.ConnectionClosed");
            recording.enable("io.rill.TlsHandshake");
            recording.enable("io.rill.HttpRequestServed");
            recording.start();

            Promise<Channel> serverChild = group.next().newPromise();
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(httpsServer(serverChild, provider)).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
            serverAddress = (InetSocketAddress) server.localAddress();
            Promise<FullHttpResponse> answer = group.next().newPromise();
            Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(httpsClient(answer, serverAddress.getPort(), provider)).connect(serverAddress).sync().getNow();
            clientLocal = client.localAddress().toString();
            FullHttpResponse response = answer.get(20, TimeUnit.SECONDS);
            try {
                assertEquals(200, response.status().code());
            } finally {
                response.release();
            }
            client.close().sync();
            assertTrue(serverChild.get(10, TimeUnit.SECONDS).closeFuture().await(10, TimeUnit.SECONDS));
            server.close().sync();
            recording.stop();
            events = readBack(recording);
        }

        RecordedEvent accepted = only(events, "io.rill.ConnectionAccepted");
        assertEquals(clientLocal, accepted.getString("remoteAddress"));
        assertEquals(serverAddress.toString(), accepted.getString("localAddress"));
        assertEquals("NioSocketChannel", accepted.getString("transport"));
        assertFalse(accepted.getString("channelId").isEmpty());

        List<RecordedEvent> closed = named(events, "io.rill.ConnectionClosed");
        assertEquals(2, closed.size(), closed::toString); // the client's and the server's side
        RecordedEvent serverSide = closed.stream().filter(e -> e.getBoolean("accepted")).findFirst().orElseThrow();
        assertEquals(clientLocal, serverSide.getString("remoteAddress"));
        assertEquals(accepted.getString("channelId"), serverSide.getString("channelId"));
        assertTrue(serverSide.getLong("bytesWritten") > 0, serverSide::toString);
        RecordedEvent clientSide = closed.stream().filter(e -> !e.getBoolean("accepted")).findFirst().orElseThrow();
        assertEquals(serverAddress.toString(), clientSide.getString("remoteAddress"));

        List<RecordedEvent> handshakes = named(events, "io.rill.TlsHandshake");
        assertEquals(2, handshakes.size(), handshakes::toString);
        for (RecordedEvent h : handshakes) {
            assertTrue(h.getBoolean("success"), h::toString);
            assertNull(h.getString("failure"));
            assertTrue(h.getString("protocol").startsWith("TLSv1."), h::toString);
            assertTrue(h.getString("cipherSuite").startsWith("TLS_"), h::toString);
            assertEquals(provider.name(), h.getString("provider"));
            assertTrue(h.getDuration("handshakeDuration").toNanos() > 0, h::toString);
        }
        assertEquals(1, handshakes.stream().filter(h -> h.getBoolean("clientMode")).count());

        RecordedEvent served = only(events, "io.rill.HttpRequestServed");
        assertEquals("GET", served.getString("method"));
        assertEquals("/hello", served.getString("path")); // the query is left out
        assertEquals(200, served.getInt("status"));
        assertEquals(5, served.getLong("bytes"));
        assertTrue(served.getDuration("responseTime").toNanos() > 0, served::toString);
    }

    @Test
    void recordsAFailedHandshake() throws Exception {
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.TlsHandshake");
            recording.start();
            Promise<Channel> serverChild = group.next().newPromise();
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(httpsServer(serverChild, SslProvider.JDK)).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
            SslContext untrusting = track(SslContextBuilder.forClient().sslProvider(SslProvider.JDK).build()); // no trust in CERT
            Promise<Void> failed = group.next().newPromise();
            new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(untrusting.newHandler(ch.alloc(), "127.0.0.1", 0));
                    ch.pipeline().addLast(new ChannelHandler() {
                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            failed.trySuccess(null);
                            ctx.close();
                        }
                    });
                }
            }).connect(server.localAddress()).sync();
            failed.get(20, TimeUnit.SECONDS);
            assertTrue(serverChild.get(10, TimeUnit.SECONDS).closeFuture().await(10, TimeUnit.SECONDS));
            server.close().sync();
            recording.stop();
            events = readBack(recording);
        }
        RecordedEvent client = named(events, "io.rill.TlsHandshake").stream()
                .filter(e -> e.getBoolean("clientMode")).findFirst().orElseThrow();
        assertFalse(client.getBoolean("success"));
        assertTrue(client.getString("failure").contains("SSLHandshakeException"), client::toString);
        assertEquals("JDK", client.getString("provider"));
    }

    @Test
    void recordsChunksAllocatedAndFreed() throws Exception {
        ManualTicker ticker = new ManualTicker();
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 0, 8192, 4, 0, 0, ticker, 0);
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.ChunkAllocated");
            recording.enable("io.rill.ChunkFreed");
            recording.start();
            ByteBuf buf = alloc.heapBuffer(1000);
            buf.release();
            ticker.advance(1, TimeUnit.DAYS);
            assertEquals(1, alloc.reclaimIdleMemory());
            recording.stop();
            events = readBack(recording);
        }
        RecordedEvent allocated = only(events, "io.rill.ChunkAllocated");
        assertEquals("heap", allocated.getString("memoryKind"));
        assertEquals(8192L << 4, allocated.getLong("chunkSize"));
        assertEquals(1, allocated.getInt("arenaChunks"));
        RecordedEvent freed = only(events, "io.rill.ChunkFreed");
        assertEquals("heap", freed.getString("memoryKind"));
        assertEquals(8192L << 4, freed.getLong("chunkSize"));
        assertEquals(0, freed.getInt("arenaChunks"));
    }

    @Test
    @LeaksExpected
    void recordsADetectedLeak() throws Exception {
        ResourceLeakDetector.Level saved = ResourceLeakDetector.level();
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.LeakDetected");
            recording.start();
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
            leakOneWidget();
            assertEquals(1, LeakDetectionExtension.collectLeaks().stream().filter(r -> r.contains("Widget")).count());
            recording.stop();
            events = readBack(recording);
        } finally {
            ResourceLeakDetector.setLevel(saved);
        }
        RecordedEvent leak = only(events, "io.rill.LeakDetected");
        assertEquals("Widget", leak.getString("resourceType"));
        assertTrue(leak.getString("report").startsWith("LEAK: Widget "), leak::toString);
    }

    @Test
    void recordsATaskThatWaitedBehindASlowOne() throws Exception {
        EventExecutor loop = group.next();
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.TaskLag");
            recording.start();
            CountDownLatch lateQueued = new CountDownLatch(1);
            CountDownLatch lateRan = new CountDownLatch(1);
            loop.execute(() -> {
                // Holds the loop until the next task has waited well past the 20 ms threshold: the lag itself.
                try {
                    assertTrue(lateQueued.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(60);
                while (System.nanoTime() - until < 0) {
                    LockSupport.parkNanos(until - System.nanoTime());
                }
            });
            loop.execute(new LateTask(lateRan));
            lateQueued.countDown();
            assertTrue(lateRan.await(10, TimeUnit.SECONDS));
            recording.stop();
            events = readBack(recording);
        }
        RecordedEvent lag = named(events, "io.rill.TaskLag").stream()
                .filter(e -> e.getClass("taskClass").getName().equals(LateTask.class.getName())).findFirst().orElseThrow();
        assertTrue(lag.getDuration("lag").toMillis() >= 50, lag::toString);
        assertTrue(lag.getString("executor").startsWith("jfr-test"), lag::toString);
    }

    @Test
    void recordsNoTaskLagBelowTheThreshold() throws Exception {
        EventExecutor loop = group.next();
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.TaskLag");
            recording.start();
            CountDownLatch ran = new CountDownLatch(1);
            // Queued from the loop itself, it runs in the same batch: microseconds of lag, not a
            // wake-up's. (The outer task may lag: it starts the loop's thread, which takes a while.)
            loop.execute(() -> loop.execute(new LateTask(ran)));
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            recording.stop();
            events = readBack(recording);
        }
        assertTrue(named(events, "io.rill.TaskLag").stream()
                .noneMatch(e -> e.getClass("taskClass").getName().equals(LateTask.class.getName())), events::toString);
    }

    // ------------------------------------------------------------------ helpers

    private static final class LateTask implements Runnable {
        private final CountDownLatch ran;

        LateTask(CountDownLatch ran) {
            this.ran = ran;
        }

        @Override
        public void run() {
            ran.countDown();
        }
    }

    private static final class Widget {
    }

    private static void leakOneWidget() {
        ResourceLeakDetector<Widget> detector = new ResourceLeakDetector<>(Widget.class, 1);
        ResourceLeakTracker<Widget> tracker = detector.track(new Widget());
        assertTrue(tracker != null);
    }

    private SslContext track(SslContext context) {
        contexts.add(context);
        return context;
    }

    private ChannelInitializer<Channel> httpsServer(Promise<Channel> child, SslProvider provider) throws Exception {
        SslContext tls = track(SslContextBuilder.forServer(CERT.key(), CERT.certificate()).sslProvider(provider).build());
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                child.trySuccess(ch);
                ch.pipeline().addLast(tls.newHandler(ch.alloc()), new HttpServerCodec(), new HttpRequestRecorder(),
                        new HttpObjectAggregator(1024), new ChannelHandler() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ((FullHttpRequest) msg).release();
                                FullHttpResponse hello = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                        HttpResponseStatus.OK, Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII));
                                hello.headers().set(HttpHeaderNames.CONTENT_LENGTH, "5");
                                ctx.writeAndFlush(hello);
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                ctx.close(); // the failed-handshake test's server side: expected
                            }
                        });
            }
        };
    }

    private ChannelInitializer<Channel> httpsClient(Promise<FullHttpResponse> answer, int port, SslProvider provider)
            throws Exception {
        SslContext tls = track(SslContextBuilder.forClient().sslProvider(provider).trustManager(CERT.certificate()).build());
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(tls.newHandler(ch.alloc(), "127.0.0.1", port), new HttpClientCodec(),
                        new HttpObjectAggregator(1024), new ChannelHandler() {
                            @Override
                            public void channelActive(ChannelHandlerContext ctx) {
                                FullHttpRequest get = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
                                        "/hello?user=someone");
                                get.headers().set(HttpHeaderNames.HOST, "127.0.0.1");
                                ctx.writeAndFlush(get);
                                ctx.fireChannelActive();
                            }

                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                if (!answer.trySuccess((FullHttpResponse) msg)) {
                                    ((FullHttpResponse) msg).release();
                                }
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                answer.tryFailure(cause);
                            }
                        });
            }
        };
    }

    private static List<RecordedEvent> readBack(Recording recording) throws IOException {
        Path file = Files.createTempFile("rill-jfr-test", ".jfr");
        try {
            recording.dump(file);
            return RecordingFile.readAllEvents(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).collect(Collectors.toList());
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> matching = named(events, name);
        assertEquals(1, matching.size(), () -> name + ": " + matching);
        return matching.get(0);
    }
}
