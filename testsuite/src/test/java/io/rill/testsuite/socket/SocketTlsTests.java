package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.ssl.ClientAuth;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.SslHandshakeTimeoutException;
import io.rill.handler.ssl.SslProvider;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * TLS over real connections of every transport, once per {@link SslProvider} (the suite has a
 * group for each): echo in both directions with random write sizes, handshake timeout, a peer
 * vanishing mid-handshake, mutual TLS accepted and refused, and the client's default host name
 * check (docs/security-cases.md, case T-08). Certificates are generated once per JVM. Every context
 * a test builds is closed after it, and then no native object of the provider may be left alive.
 * OPENSSL groups skip themselves when BoringSSL cannot load.
 */
abstract class SocketTlsTests extends AbstractSocketTest {

    private static final SelfSignedCertificate SERVER_CERT = new SelfSignedCertificate();
    private static final SelfSignedCertificate OTHER_HOST = new SelfSignedCertificate("other.test");
    private static final SelfSignedCertificate CLIENT_CERT = new SelfSignedCertificate("client.test");

    /** The channel of the last {@link #connectTls}. */
    private Channel lastClient;
    /** Closed once the test's channels are. */
    private final List<SslContext> contexts = new ArrayList<>();
    private int nativeObjectsBefore;

    /** The TLS implementation under test. */
    protected abstract SslProvider provider();

    @BeforeEach
    void requireProvider() {
        assumeTrue(provider().isAvailable(), () -> provider() + " unavailable: " + provider().unavailabilityCause());
        nativeObjectsBefore = provider().liveNativeObjects();
    }

    @Override
    void afterGroupTerminated() {
        contexts.forEach(SslContext::close);
        assertEquals(nativeObjectsBefore, provider().liveNativeObjects(),
                provider() + ": native contexts or engines left alive");
    }

    /** A context of the provider under test, closed after the test. */
    SslContext build(SslContextBuilder builder) {
        try {
            SslContext context = builder.sslProvider(provider()).build();
            contexts.add(context);
            return context;
        } catch (SSLException e) {
            throw new AssertionError(e);
        }
    }

    private SslContext server(SelfSignedCertificate cert) {
        return build(SslContextBuilder.forServer(cert.key(), cert.certificate()));
    }

    private static SslContextBuilder clientTrusting(SelfSignedCertificate cert) {
        return SslContextBuilder.forClient().trustManager(cert.certificate());
    }

    /** A TLS server whose children get an SslHandler from {@code context}, then {@code handlers}. */
    private BlockingQueue<SslHandler> startTlsServer(SslContext context, ChannelHandler... handlers) {
        BlockingQueue<SslHandler> accepted = new LinkedBlockingQueue<>();
        startServer(serverBootstrap().childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                SslHandler ssl = context.newHandler(ch.alloc());
                ssl.setHandshakeTimeout(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                ch.pipeline().addLast(ssl);
                ch.pipeline().addLast(handlers);
                accepted.add(ssl);
                track(ch);
            }
        }));
        return accepted;
    }

    /** A TLS client (checking host "127.0.0.1" unless the context says not to) with {@code handler} after it. */
    private SslHandler connectTls(SslContext context, ChannelHandler handler) {
        return connectTls(context, handler, 0);
    }

    /** Like {@link #connectTls(SslContext, ChannelHandler)}, telling the engine the peer's port (sessions are cached by it). */
    private SslHandler connectTls(SslContext context, ChannelHandler handler, int peerPort) {
        SslHandler ssl = context.newHandler(ByteBufAllocator.DEFAULT, "127.0.0.1", peerPort);
        lastClient = track(await(clientBootstrap().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(ssl, handler);
            }
        }).connect(startedServer.localAddress())));
        return ssl;
    }

    @Test
    void echoesRandomWriteSizesBothWays() throws Exception {
        startTlsServer(server(SERVER_CERT), new EchoHandler());
        ByteCollector received = new ByteCollector();
        SslHandler client = connectTls(build(clientTrusting(SERVER_CERT)), received);
        Channel channel = await(client.handshakeFuture());

        Random random = new Random(42);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        for (int total = 0; total < 300_000; ) {
            int size = 1 + random.nextInt(random.nextBoolean() ? 64 : 40_000);
            byte[] chunk = new byte[size];
            random.nextBytes(chunk);
            sent.writeBytes(chunk);
            total += size;
            if (random.nextInt(4) == 0) {
                channel.writeAndFlush(Unpooled.copiedBuffer(chunk));
            } else {
                channel.write(Unpooled.copiedBuffer(chunk));
            }
        }
        channel.flush();
        byte[] expected = sent.toByteArray();
        assertArrayEquals(expected, received.await(expected.length));
        await(channel.close());
    }

    @Test
    void aServerThatWritesMoreThanTheWaterMarkBeforeTheHandshakeEndsStillCompletesIt() throws Exception {
        // Plaintext written before the handshake counts toward writability, and an accepted
        // channel stops reading while unwritable: the handshake must still read what it needs.
        byte[] greeting = new byte[256 * 1024];
        new Random(3).nextBytes(greeting);
        startTlsServer(server(SERVER_CERT), new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.writeAndFlush(Unpooled.copiedBuffer(greeting));
                ctx.fireChannelActive();
            }
        });
        ByteCollector received = new ByteCollector();
        connectTls(build(clientTrusting(SERVER_CERT)), received);
        assertArrayEquals(greeting, received.await(greeting.length));
    }

    @Test
    void aClientResumesItsSessionWhenItReconnects() throws Exception {
        assumeTrue(provider() == SslProvider.OPENSSL, "the JDK's engine does not tell whether it resumed");
        startTlsServer(server(SERVER_CERT), new EchoHandler());
        SslContext client = build(clientTrusting(SERVER_CERT));
        for (int i = 0; i < 3; i++) {
            ByteCollector received = new ByteCollector();
            // Any port will do as the session's key: Unix-domain and local peers have none.
            SslHandler ssl = connectTls(client, received, 443);
            Channel channel = await(ssl.handshakeFuture());
            assertEquals(i > 0, ssl.isSessionReused(), "connection " + i);
            // A round trip, so the TLS 1.3 session tickets sent after the handshake have arrived.
            channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) i}));
            assertArrayEquals(new byte[] {(byte) i}, received.await(1));
            await(channel.close());
        }
    }

    @Test
    void aClientThatSendsNothingIsClosedAtTheHandshakeTimeout() throws Exception {
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        SslContext context = server(SERVER_CERT);
        startServer(serverBootstrap().childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                SslHandler ssl = context.newHandler(ch.alloc());
                ssl.setHandshakeTimeout(100, TimeUnit.MILLISECONDS);
                ch.pipeline().addLast(ssl, new ChannelHandler() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        errors.add(cause);
                    }
                });
                track(ch);
            }
        }));
        Channel client = connect(startedServer, new ByteCollector());
        assertInstanceOf(SslHandshakeTimeoutException.class, take(errors));
        await(client.closeFuture());
    }

    @Test
    void aPeerVanishingMidHandshakeFailsTheHandshake() throws Exception {
        BlockingQueue<SslHandler> accepted = startTlsServer(server(SERVER_CERT));
        Channel raw = connect(startedServer, new ByteCollector());
        // The start of a ClientHello record, then the connection ends.
        await(raw.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {0x16, 3, 1, 0, (byte) 0xC8, 1, 0, 0})));
        SslHandler server = take(accepted);
        await(raw.close());
        Throwable cause = awaitFailure(server.handshakeFuture());
        assertInstanceOf(SSLHandshakeException.class, cause);
        assertTrue(cause.getMessage().contains("closed during the TLS handshake"), cause.getMessage());
    }

    /**
     * With half-closure on (as the HTTP codec sets it), a client that connects and ends its stream
     * before its ClientHello, or in the middle of it, can never complete the handshake: the server
     * closes at the FIN rather than holding the connection until the handshake timeout (here an
     * hour, so only the FIN can end it). Seen in the soak, where each such probe held a TLS
     * server's descriptor for the default 10 s.
     */
    @Test
    void aClientThatEndsItsStreamBeforeTheHandshakeIsClosedAtOnce() throws Exception {
        for (byte[] sent : List.of(new byte[0], new byte[] {0x16, 3, 1, 0, (byte) 0xC8, 1, 0, 0})) {
            BlockingQueue<SslHandler> accepted = new LinkedBlockingQueue<>();
            SslContext context = server(SERVER_CERT);
            startServer(serverBootstrap().childOption(io.rill.channel.ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            SslHandler ssl = context.newHandler(ch.alloc());
                            ssl.setHandshakeTimeout(1, TimeUnit.HOURS);
                            ch.pipeline().addLast(ssl);
                            accepted.add(ssl);
                            track(ch);
                        }
                    }));
            Channel raw = connect(startedServer, new ByteCollector());
            assumeTrue(raw instanceof io.rill.channel.socket.DuplexChannel, transport + " has no half closure");
            if (sent.length > 0) {
                await(raw.writeAndFlush(Unpooled.wrappedBuffer(sent)));
            }
            SslHandler server = take(accepted);
            await(((io.rill.channel.socket.DuplexChannel) raw).shutdownOutput());
            Throwable cause = awaitFailure(server.handshakeFuture());
            assertInstanceOf(SSLHandshakeException.class, cause);
            assertTrue(cause.getMessage().contains("ended its stream"), cause.getMessage());
            await(raw.closeFuture()); // the server's close reaches the client as its end of stream
            await(startedServer.close());
        }
    }

    @Test
    void mutualTlsAcceptsATrustedClientCertificate() throws Exception {
        BlockingQueue<SslHandler> accepted = startTlsServer(build(SslContextBuilder
                .forServer(SERVER_CERT.key(), SERVER_CERT.certificate())
                .clientAuth(ClientAuth.REQUIRE).trustManager(CLIENT_CERT.certificate())));
        SslHandler client = connectTls(build(clientTrusting(SERVER_CERT)
                .keyManager(CLIENT_CERT.key(), CLIENT_CERT.certificate())), new ByteCollector());
        await(client.handshakeFuture());
        SslHandler server = take(accepted);
        await(server.handshakeFuture());
        assertEquals(CLIENT_CERT.certificate(), server.engine().getSession().getPeerCertificates()[0]);
    }

    @Test
    void mutualTlsRefusesAClientWithoutACertificate() throws Exception {
        BlockingQueue<SslHandler> accepted = startTlsServer(build(SslContextBuilder
                .forServer(SERVER_CERT.key(), SERVER_CERT.certificate())
                .clientAuth(ClientAuth.REQUIRE).trustManager(CLIENT_CERT.certificate())));
        SslHandler client = connectTls(build(clientTrusting(SERVER_CERT)), new ByteCollector());
        SslHandler server = take(accepted);
        assertInstanceOf(SSLHandshakeException.class, awaitFailure(server.handshakeFuture()));
        // A TLS 1.3 client may finish its side first: it learns of the refusal by the alert, and
        // either way its TLS session never ends cleanly.
        await(lastClient.closeFuture());
        awaitFailure(client.sslCloseFuture());
    }

    @Test
    @DisplayName("T-08: a client refuses a certificate for another host by default")
    void aClientRefusesACertificateForAnotherHostByDefault() throws Exception {
        // T-08: trusted certificate for other.test, connection to 127.0.0.1.
        startTlsServer(server(OTHER_HOST));
        SslHandler client = connectTls(build(clientTrusting(OTHER_HOST)), new ByteCollector());
        Throwable cause = awaitFailure(client.handshakeFuture());
        assertInstanceOf(SSLHandshakeException.class, cause);
    }
}
