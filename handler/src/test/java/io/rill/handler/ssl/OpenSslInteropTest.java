package io.rill.handler.ssl;

import static io.rill.handler.ssl.TlsFixtures.CLIENT;
import static io.rill.handler.ssl.TlsFixtures.LOCALHOST;
import static io.rill.handler.ssl.TlsFixtures.build;
import static io.rill.handler.ssl.TlsFixtures.clientTrusting;
import static io.rill.handler.ssl.TlsFixtures.serverBuilder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.handler.ssl.Peers.Result;
import io.rill.handler.ssl.Peers.RillServer;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * Rill's TLS against real peers over loopback: {@code openssl s_client} and {@code curl}
 * against Rill servers, a Rill client against {@code openssl s_server}. Skipped only when the
 * binaries are missing (.ci/run installs them).
 *
 * <p>Case IDs such as T-07 in this file are those of docs/security-cases.md.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OpenSslInteropTest {
    /** The provider of the Rill side; a subclass reruns every test with another. */
    SslProvider provider() {
        return SslProvider.JDK;
    }

    @org.junit.jupiter.api.BeforeEach
    void selectProvider() {
        TlsFixtures.provider = provider();
    }


    private static final SelfSignedCertificate SNI_HOST = new SelfSignedCertificate("sni.test");

    @TempDir
    Path dir;

    /** Echoes the first read, then closes (sending close_notify), so s_client exits by itself. */
    static final class EchoOnceThenClose implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg).addListener(f -> ctx.close());
        }
    }

    /** Records what reaches the end of a server pipeline's exceptionCaught. */
    static ChannelHandler errorsTo(BlockingQueue<Throwable> errors) {
        return new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause instanceof SSLHandshakeException ? cause
                        : cause.getCause() != null ? cause.getCause() : cause);
                ctx.close();
            }
        };
    }

    private static List<String> sClient(int port, String... extra) {
        List<String> cmd = new ArrayList<>(List.of(OpenSslTool.path(), "s_client", "-connect", "127.0.0.1:" + port,
                "-CAfile", LOCALHOST.certificateFile().getAbsolutePath()));
        cmd.addAll(List.of(extra));
        return cmd;
    }

    private static RillServer echoServer(SslContext context, BlockingQueue<Throwable> errors) {
        return new RillServer(ch -> ch.pipeline().addLast(context.newHandler(ch.alloc()), new EchoOnceThenClose(),
                errorsTo(errors)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1_2", "1_3"})
    void sClientTalksToARillServerWithAlpn(String version) throws Exception {
        OpenSslTool.assumeAvailable();
        SslContext context = build(serverBuilder(LOCALHOST).applicationProtocols("h2", "http/1.1"));
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        try (RillServer server = echoServer(context, errors)) {
            Result h2 = Peers.run(dir, "ping-" + version + "\n", sClient(server.port(), "-tls" + version,
                    "-servername", "localhost", "-verify_return_error", "-ign_eof", "-alpn", "h2,http/1.1"));
            h2.assertContains("TLSv" + version.replace('_', '.'), "ALPN protocol: h2", "Verify return code: 0 (ok)",
                    "ping-" + version);
            Result http1 = Peers.run(dir, "ping\n", sClient(server.port(), "-tls" + version, "-ign_eof",
                    "-alpn", "http/1.1"));
            http1.assertContains("ALPN protocol: http/1.1", "ping");
            assertTrue(errors.isEmpty(), errors.toString());
        }
    }

    @Test
    void sniPicksTheCertificateForTheRequestedName() throws Exception {
        OpenSslTool.assumeAvailable();
        SslContextMapping mapping = SslContextMapping.builder(build(serverBuilder(LOCALHOST)))
                .add("sni.test", build(serverBuilder(SNI_HOST))).build();
        try (RillServer server = new RillServer(ch -> ch.pipeline().addLast(new SniHandler(mapping),
                new EchoOnceThenClose()))) {
            Peers.run(dir, "x\n", sClient(server.port(), "-servername", "sni.test", "-ign_eof"))
                    .assertContains("subject=CN = sni.test");
            Peers.run(dir, "x\n", sClient(server.port(), "-servername", "localhost", "-ign_eof"))
                    .assertContains("subject=CN = localhost");
        }
    }

    @Test
    void mutualTlsWithSClientIsAcceptedWithACertificateAndRefusedWithout() throws Exception {
        OpenSslTool.assumeAvailable();
        SslContext context = build(serverBuilder(LOCALHOST).clientAuth(ClientAuth.REQUIRE)
                .trustManager(CLIENT.certificate()));
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        try (RillServer server = echoServer(context, errors)) {
            Peers.run(dir, "with-cert\n", sClient(server.port(), "-ign_eof",
                    "-cert", CLIENT.certificateFile().getAbsolutePath(),
                    "-key", CLIENT.privateKeyFile().getAbsolutePath())).assertContains("with-cert");
            assertTrue(errors.isEmpty(), errors.toString());
            Result refused = Peers.run(dir, "without\n", sClient(server.port(), "-ign_eof"));
            assertInstanceOf(SSLHandshakeException.class, errors.poll(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertTrue(!refused.output().contains("\nwithout"), refused.output());
        }
    }

    @Test
    @DisplayName("TL-01: renegotiation requested by s client is refused")
    void renegotiationRequestedBySClientIsRefused() throws Exception {
        // TL-01: "R" asks s_client to renegotiate a TLS 1.2 session.
        OpenSslTool.assumeAvailable();
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        SslContext context = build(serverBuilder(LOCALHOST));
        try (RillServer server = new RillServer(ch -> ch.pipeline().addLast(context.newHandler(ch.alloc()),
                errorsTo(errors)))) {
            Peers.run(dir, "R\n", sClient(server.port(), "-tls1_2", "-no_ign_eof")).assertContains("RENEGOTIATING");
            Throwable refused = errors.poll(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertInstanceOf(SSLHandshakeException.class, refused);
            assertTrue(refused.getMessage().contains("renegotiation refused"), refused.getMessage());
        }
    }

    @Test
    void sClientResumesItsSessionOnReconnect() throws Exception {
        OpenSslTool.assumeAvailable();
        SslContext context = build(serverBuilder(LOCALHOST));
        try (RillServer server = new RillServer(ch -> ch.pipeline().addLast(context.newHandler(ch.alloc())))) {
            Result result = Peers.run(dir, "", sClient(server.port(), "-tls1_2", "-reconnect", "-no_ign_eof"));
            result.assertContains("Reused, TLSv1.2");
        }
    }

    @Test
    void curlFetchesFromARillServerOverTls12And13() throws Exception {
        String curl = OpenSslTool.find("curl");
        org.junit.jupiter.api.Assumptions.assumeTrue(curl != null, "curl is not installed");
        SslContext context = build(serverBuilder(LOCALHOST).applicationProtocols("http/1.1"));
        try (RillServer server = new RillServer(ch -> ch.pipeline().addLast(context.newHandler(ch.alloc()),
                new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ((ByteBuf) msg).release();
                        byte[] response = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nConnection: close\r\n\r\nhello, tls\n"
                                .getBytes(StandardCharsets.US_ASCII);
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(response)).addListener(f -> ctx.close());
                    }
                }))) {
            for (String[] versions : new String[][] {{"--tlsv1.2", "--tls-max", "1.2"}, {"--tlsv1.3"}}) {
                List<String> cmd = new ArrayList<>(List.of(curl, "-sS", "-v", "--cacert",
                        LOCALHOST.certificateFile().getAbsolutePath(), "--resolve", "localhost:" + server.port()
                        + ":127.0.0.1"));
                cmd.addAll(List.of(versions));
                cmd.add("https://localhost:" + server.port() + "/");
                Result result = Peers.run(dir, "", cmd);
                assertEquals(0, result.exitCode(), result.output());
                result.assertContains("hello, tls", "ALPN", "http/1.1");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-tls1_2", "-tls1_3"})
    void aRillClientTalksToSServer(String version) throws Exception {
        OpenSslTool.assumeAvailable();
        int port = freePort();
        ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        Process sServer = startSServer(port, serverOut, version, "-alpn", "h2", "-rev", "-naccept", "1");
        io.rill.channel.EventLoopGroup group = new io.rill.channel.MultiThreadIoEventLoopGroup(1,
                io.rill.channel.nio.NioIoHandler.newFactory());
        try {
            SslContext context = build(clientTrusting(LOCALHOST).applicationProtocols("h2"));
            SslHandler ssl = context.newHandler(ByteBufAllocator.DEFAULT, "localhost", port);
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Channel ch = connectOverTls(group, ssl, port, lines::add);
            assertEquals("h2", ssl.applicationProtocol());
            assertEquals(version.equals("-tls1_2") ? "TLSv1.2" : "TLSv1.3", ssl.engine().getSession().getProtocol());
            ch.writeAndFlush(Unpooled.copiedBuffer("hello rill\n", StandardCharsets.US_ASCII));
            StringBuilder got = new StringBuilder();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Peers.TIMEOUT_SECONDS);
            while (!got.toString().contains("llir olleh") && System.nanoTime() < deadline) {
                String part = lines.poll(100, TimeUnit.MILLISECONDS);
                if (part != null) {
                    got.append(part);
                }
            }
            assertTrue(got.toString().contains("llir olleh"), "reversed echo, got '" + got + "'; s_server said:\n"
                    + serverOut);
            ch.close().awaitUninterruptibly(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            sServer.destroy();
            sServer.waitFor(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** s_server on 127.0.0.1:{@code port} as localhost with {@code options}, once it accepts connections. */
    private Process startSServer(int port, ByteArrayOutputStream out, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(OpenSslTool.path(), "s_server", "-accept", "127.0.0.1:" + port,
                "-cert", LOCALHOST.certificateFile().getAbsolutePath(),
                "-key", LOCALHOST.privateKeyFile().getAbsolutePath()));
        command.addAll(List.of(options));
        return Peers.startAndAwait(dir, command, "ACCEPT", out);
    }

    /** A free port for s_server; it is reused at once. */
    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-tls1_2", "-tls1_3"})
    void aRillClientResumesItsSessionWithSServer(String version) throws Exception {
        OpenSslTool.assumeAvailable();
        int port = freePort();
        ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        // -www answers each connection with a page that says "New," or "Reused," for its session.
        Process sServer = startSServer(port, serverOut, version, "-www");
        io.rill.channel.EventLoopGroup group = new io.rill.channel.MultiThreadIoEventLoopGroup(1,
                io.rill.channel.nio.NioIoHandler.newFactory());
        try (SslContext context = build(clientTrusting(LOCALHOST))) {
            String protocol = version.equals("-tls1_2") ? "TLSv1.2" : "TLSv1.3";
            SslHandler first = context.newHandler(ByteBufAllocator.DEFAULT, "localhost", port);
            assertTrue(fetchStatusPage(group, first, port).contains("New, " + protocol), serverOut::toString);
            SslHandler second = context.newHandler(ByteBufAllocator.DEFAULT, "localhost", port);
            String page = fetchStatusPage(group, second, port);
            assertTrue(page.contains("Reused, " + protocol), page);
            if (provider() == SslProvider.OPENSSL) {
                assertFalse(first.isSessionReused());
                assertTrue(second.isSessionReused());
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            sServer.destroy();
            sServer.waitFor(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** GET / from s_server -www over {@code ssl}: the page, read until s_server closes the connection. */
    private static String fetchStatusPage(io.rill.channel.EventLoopGroup group, SslHandler ssl, int port) {
        StringBuffer page = new StringBuffer();
        Channel ch = connectOverTls(group, ssl, port, page::append);
        ch.writeAndFlush(Unpooled.copiedBuffer("GET / HTTP/1.0\r\n\r\n", StandardCharsets.US_ASCII));
        assertTrue(ch.closeFuture().awaitUninterruptibly(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS), page::toString);
        return page.toString();
    }

    /** A NIO client on 127.0.0.1:{@code port} behind {@code ssl}, passing what it reads as text to {@code onText}; after the handshake. */
    private static Channel connectOverTls(io.rill.channel.EventLoopGroup group, SslHandler ssl, int port,
            java.util.function.Consumer<String> onText) {
        Channel ch = new Bootstrap().group(group).channelFactory(NioSocketChannel::new)
                .handler(new ChannelHandler() {
                    @Override
                    public void handlerAdded(ChannelHandlerContext ctx) {
                        ctx.pipeline().addBefore(ctx.name(), "ssl", ssl);
                    }

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf buf = (ByteBuf) msg;
                        onText.accept(buf.toString(StandardCharsets.US_ASCII));
                        buf.release();
                    }
                })
                .connect(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().getNow();
        assertTrue(ssl.handshakeFuture().awaitUninterruptibly(Peers.TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertTrue(ssl.handshakeFuture().isSuccess(), String.valueOf(ssl.handshakeFuture().cause()));
        return ch;
    }
}
