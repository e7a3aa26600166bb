package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.pool.AcquireTimeoutException;
import io.rill.channel.pool.ChannelPoolClosedException;
import io.rill.channel.pool.PendingAcquireLimitException;
import io.rill.handler.codec.http2.Http2ConnectionNotReadyException;
import io.rill.handler.codec.http2.Http2ConnectionPool;
import io.rill.handler.codec.http2.HttpAlpnNegotiationHandler;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.util.SelfSignedCertificate;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.util.concurrent.Future;

/** {@link Http2ConnectionPool} against Rill's HTTP/2 server: streams per connection, growth, waiting, GOAWAY, close. */
abstract class SocketHttp2PoolTests extends AbstractSocketTest {

    @TempDir
    java.nio.file.Path dir;

    private BlockingQueue<Channel> serverConnections;

    /** An h2c server allowing {@code maxStreams} concurrent streams per connection. */
    private SocketAddress startServer(int maxStreams) {
        this.maxStreams = maxStreams;
        serverConnections = startH2cServer();
        return startedServer.localAddress();
    }

    private BlockingQueue<Channel> startH2cServer() {
        BlockingQueue<Channel> accepted = new java.util.concurrent.LinkedBlockingQueue<>();
        int max = maxStreams;
        startServer(serverBootstrap().childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forServer().maxConcurrentStreams(max).build(),
                        new SocketHttp2Tests.Http2App());
                accepted.add(track(ch));
            }
        }));
        return accepted;
    }

    /** What the next server allows. */
    private int maxStreams;

    private Http2ConnectionPool.Builder pool(SocketAddress address) {
        Bootstrap h2c = clientBootstrap().remoteAddress(address).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                track(ch);
                ch.pipeline().addLast(Http2FrameCodec.forClient().build(), new Http2MultiplexHandler(null));
            }
        });
        return Http2ConnectionPool.builder(h2c, group.next());
    }

    private static String get(Http2StreamChannel stream, SocketHttp2Tests.ResponseCollector responses)
            throws InterruptedException {
        stream.writeAndFlush(new Http2HeadersFrame(0,
                new Http2Headers().method("GET").scheme("http").authority("pool.test").path("/"), true));
        String status = take(responses.statuses);
        return status + " " + new String(take(responses.bodies), StandardCharsets.US_ASCII);
    }

    @Test
    void streamsShareAConnectionUpToThePeersMaxConcurrentStreamsThenAnotherOpens() throws Exception {
        Http2ConnectionPool pool = pool(startServer(2)).build();
        SocketHttp2Tests.ResponseCollector r1 = new SocketHttp2Tests.ResponseCollector();
        Http2StreamChannel s1 = await(pool.acquire(r1));
        Http2StreamChannel s2 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        Http2StreamChannel s3 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        assertSame(s1.parent(), s2.parent(), "two streams fit on the first connection");
        assertNotSame(s1.parent(), s3.parent(), "the third needs another connection");
        assertEquals(2, await(pool.connectionCount()));
        assertEquals("200 Hello, World!", get(s1, r1));
        await(s1.closeFuture());
        await(pool.release(s2));
        await(pool.release(s3));
        await(pool.closeAsync());
    }

    @Test
    void aClosedStreamFreesItsSlotForTheOldestWaiter() throws Exception {
        Http2ConnectionPool pool = pool(startServer(2)).maxConnections(1).build();
        Http2StreamChannel s1 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        Http2StreamChannel s2 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        SocketHttp2Tests.ResponseCollector r3 = new SocketHttp2Tests.ResponseCollector();
        Future<Http2StreamChannel> third = pool.acquire(r3);
        Future<Http2StreamChannel> fourth = pool.acquire(new SocketHttp2Tests.ResponseCollector());
        await(pool.connectionCount()); // a round trip through the pool's loop: both acquires were handled
        assertFalse(third.isDone(), "no room: it waits");
        await(pool.release(s1));
        Http2StreamChannel s3 = await(third);
        assertSame(s2.parent(), s3.parent(), "still one connection");
        assertFalse(fourth.isDone());
        assertEquals("200 Hello, World!", get(s3, r3)); // ends the stream, which frees its slot
        Http2StreamChannel s4 = await(fourth);
        assertSame(s2.parent(), s4.parent());
        assertEquals(1, await(pool.connectionCount()));
        await(pool.closeAsync());
    }

    /** docs/security-cases.md, case CL-01. */
    @Test
    void cl_01_anAcquireBeyondMaxPendingAcquiresFailsNamingTheLimit() {
        Http2ConnectionPool pool = pool(startServer(1)).maxConnections(1).maxPendingAcquires(1).build();
        Http2StreamChannel s1 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        Future<Http2StreamChannel> waiting = pool.acquire(new SocketHttp2Tests.ResponseCollector());
        Throwable refused = awaitFailure(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        assertInstanceOf(PendingAcquireLimitException.class, refused);
        assertTrue(refused.getMessage().contains("maxPendingAcquires (1)"), refused.getMessage());
        await(pool.release(s1));
        assertSame(s1.parent(), await(waiting).parent());
        await(pool.closeAsync());
    }

    @Test
    void anAcquireWaitingPastAcquireTimeoutFailsNamingItAndACancelledOneLeavesTheQueue() {
        Http2ConnectionPool pool = pool(startServer(1)).maxConnections(1).maxPendingAcquires(1)
                .acquireTimeout(Duration.ofMillis(100)).build();
        Http2StreamChannel s1 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        Throwable cause = awaitFailure(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        assertInstanceOf(AcquireTimeoutException.class, cause);
        assertTrue(cause.getMessage().contains("acquireTimeout (100 ms)"), cause.getMessage());
        Future<Http2StreamChannel> cancelled = pool.acquire(new SocketHttp2Tests.ResponseCollector());
        await(pool.connectionCount()); // a round trip through the pool's loop: the acquire is queued
        assertTrue(cancelled.cancel(false));
        Future<Http2StreamChannel> next = pool.acquire(new SocketHttp2Tests.ResponseCollector()); // room again
        await(pool.release(s1));
        assertSame(s1.parent(), await(next).parent());
        await(pool.closeAsync());
    }

    @Test
    void aConnectionWithoutStreamsForIdleTimeoutIsClosedAndTheNextAcquireOpensAnother() {
        Http2ConnectionPool pool = pool(startServer(10)).idleTimeout(Duration.ofMillis(200)).build();
        Http2StreamChannel s1 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        Channel first = s1.parent();
        await(pool.release(s1));
        await(first.closeFuture());
        Http2StreamChannel s2 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        assertNotSame(first, s2.parent());
        assertEquals(1, await(pool.connectionCount()));
        await(pool.closeAsync());
    }

    @Test
    void aConnectionThePeerShutsDownIsNoLongerUsedAndItsStreamsClose() throws Exception {
        Http2ConnectionPool pool = pool(startServer(10)).build();
        Http2StreamChannel s1 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        Channel first = s1.parent();
        take(serverConnections).close(); // GOAWAY, then the close
        assertTrue(s1.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "the stream on the dead connection closed");
        assertTrue(first.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        SocketHttp2Tests.ResponseCollector r2 = new SocketHttp2Tests.ResponseCollector();
        Http2StreamChannel s2 = await(pool.acquire(r2));
        assertNotSame(first, s2.parent(), "a new connection");
        assertEquals("200 Hello, World!", get(s2, r2));
        assertEquals(1, await(pool.connectionCount()));
        await(pool.closeAsync());
    }

    @Test
    void closingThePoolClosesItsConnectionsAndFailsWaitingAndLaterAcquires() {
        Http2ConnectionPool pool = pool(startServer(1)).maxConnections(1).build();
        Http2StreamChannel s1 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        Future<Http2StreamChannel> waiting = pool.acquire(new SocketHttp2Tests.ResponseCollector());
        await(pool.closeAsync());
        assertInstanceOf(ChannelPoolClosedException.class, awaitFailure(waiting));
        assertInstanceOf(ChannelPoolClosedException.class,
                awaitFailure(pool.acquire(new SocketHttp2Tests.ResponseCollector())));
        assertTrue(s1.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertFalse(s1.parent().isOpen());
    }

    @Test
    void aConnectFailureFailsTheWaitingAcquires() throws IOException {
        SocketAddress nobody;
        if (transport.isInet()) {
            try (ServerSocketChannel s = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
                nobody = s.getLocalAddress();
            }
        } else {
            nobody = transport.bindAddress().get();
        }
        Http2ConnectionPool pool = pool(nobody).build();
        Future<Http2StreamChannel> a = pool.acquire(new SocketHttp2Tests.ResponseCollector());
        Future<Http2StreamChannel> b = pool.acquire(new SocketHttp2Tests.ResponseCollector());
        assertInstanceOf(IOException.class, awaitFailure(a));
        assertInstanceOf(IOException.class, awaitFailure(b));
        assertEquals(0, await(pool.connectionCount()));
        await(pool.closeAsync());
    }

    /** nghttpd (nghttp2's server) allowing two streams per connection: the third stream opens a second connection. */
    @Test
    void streamsFromNghttpdSpreadOverConnectionsAtItsMaxConcurrentStreams() throws Exception {
        ExternalPeer.require("nghttpd");
        assumeTrue(transport.isInet(), "nghttpd speaks TCP only");
        java.nio.file.Files.writeString(dir.resolve("index.html"), "pooled");
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Process nghttpd = new ProcessBuilder("nghttpd", "--no-tls", "-v", "-m", "2", "-d", dir.toString(),
                "-a", "127.0.0.1", String.valueOf(port)).redirectErrorStream(true).start();
        try {
            SocketHttp2Tests.awaitListening(nghttpd);
            Http2ConnectionPool pool = pool(new InetSocketAddress("127.0.0.1", port)).build();
            java.util.List<Http2StreamChannel> streams = new java.util.ArrayList<>();
            java.util.List<SocketHttp2Tests.ResponseCollector> responses = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                SocketHttp2Tests.ResponseCollector r = new SocketHttp2Tests.ResponseCollector();
                responses.add(r);
                streams.add(await(pool.acquire(r)));
            }
            assertSame(streams.get(0).parent(), streams.get(1).parent());
            assertNotSame(streams.get(0).parent(), streams.get(2).parent());
            for (int i = 0; i < 3; i++) {
                assertEquals("200 pooled", get(streams.get(i), responses.get(i)));
            }
            await(pool.closeAsync());
        } finally {
            nghttpd.destroy();
            nghttpd.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static final SelfSignedCertificate CERT = new SelfSignedCertificate();

    /** A pool whose connections speak TLS and pick h2 by ALPN (a fallback to http/1.1 closes the connection). */
    private Http2ConnectionPool tlsPool(SocketAddress address) throws Exception {
        SslContext tls = HttpAlpnNegotiationHandler.offerH2AndHttp11(
                SslContextBuilder.forClient().trustManager(CERT.certificate())).build();
        Bootstrap h2 = clientBootstrap().remoteAddress(address).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                track(ch);
                HttpAlpnNegotiationHandler.addClientHandlers(ch, tls, "localhost", 443,
                        () -> Http2FrameCodec.forClient().build(), () -> new Http2MultiplexHandler(null), Closer::new);
            }
        });
        return Http2ConnectionPool.builder(h2, group.next()).build();
    }

    /** What a connection that fell back to HTTP/1.1 gets in these tests: closed. */
    private static final class Closer extends ChannelInitializer<Channel> {
        @Override
        protected void initChannel(Channel ch) {
            ch.close();
        }
    }

    @Test
    void overTlsAConnectionIsUsedOnceAlpnChoseH2() throws Exception {
        SslContext serverTls = HttpAlpnNegotiationHandler.offerH2AndHttp11(
                SslContextBuilder.forServer(CERT.key(), CERT.certificate())).build();
        startServer(serverBootstrap().childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                track(ch);
                HttpAlpnNegotiationHandler.addServerHandlers(ch, serverTls,
                        () -> Http2FrameCodec.forServer().maxConcurrentStreams(1).build(), SocketHttp2Tests.Http2App::new,
                        Closer::new);
            }
        }));
        Http2ConnectionPool pool = tlsPool(startedServer.localAddress());
        SocketHttp2Tests.ResponseCollector r1 = new SocketHttp2Tests.ResponseCollector();
        Http2StreamChannel s1 = await(pool.acquire(r1));
        Http2StreamChannel s2 = await(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        assertNotSame(s1.parent(), s2.parent(), "the server allows one stream per connection");
        assertEquals("200 Hello, World!", get(s1, r1));
        await(pool.closeAsync());
    }

    @Test
    void overTlsAPeerThatChoseHttp11FailsTheAcquireWithHttp2ConnectionNotReadyException() throws Exception {
        SslContext http11Only = SslContextBuilder.forServer(CERT.key(), CERT.certificate()).build();
        startServer(serverBootstrap().childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                track(ch);
                ch.pipeline().addLast(http11Only.newHandler(ch.alloc()));
            }
        }));
        Http2ConnectionPool pool = tlsPool(startedServer.localAddress());
        Throwable cause = awaitFailure(pool.acquire(new SocketHttp2Tests.ResponseCollector()));
        assertInstanceOf(Http2ConnectionNotReadyException.class, cause);
        assertTrue(cause.getMessage().contains("before it was ready for HTTP/2 streams"), cause.getMessage());
        await(pool.closeAsync());
    }
}
