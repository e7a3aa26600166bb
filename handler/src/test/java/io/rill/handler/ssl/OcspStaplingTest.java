package io.rill.handler.ssl;

import static io.rill.handler.ssl.TlsFixtures.build;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SSLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.ssl.OpenSslInteropTest.EchoOnceThenClose;
import io.rill.handler.ssl.Peers.RillServer;

/**
 * OCSP stapling (RFC 6066 §8) with the OPENSSL provider: a real OCSP response, made by the
 * {@code openssl ocsp} responder for a server certificate of a test CA, stapled by a Rill server
 * and read by {@code openssl s_client -status} and by a Rill client.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OcspStaplingTest {

    /** The minimal configuration {@code openssl req} needs, with the extensions of both certificates. */
    private static final String CONFIG = """
            [req]
            distinguished_name = dn
            [dn]
            [ca]
            basicConstraints = critical,CA:TRUE
            keyUsage = critical,keyCertSign,cRLSign,digitalSignature
            [server]
            basicConstraints = CA:FALSE
            subjectAltName = DNS:localhost,IP:127.0.0.1
            """;

    @TempDir
    static Path dir;
    private static byte[] response;
    private int nativeObjects;

    @BeforeAll
    static void makeAnOcspResponse() throws Exception {
        Assumptions.assumeTrue(SslProvider.OPENSSL.isAvailable(), () -> SslProvider.OPENSSL.unavailabilityCause());
        OpenSslTool.assumeAvailable();
        Files.writeString(dir.resolve("rill.cnf"), CONFIG);
        OpenSslTool.run(dir, "req", "-config", "rill.cnf", "-extensions", "ca", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:P-256", "-noenc", "-keyout", "ca.key", "-out", "ca.pem",
                "-subj", "/CN=Rill OCSP test CA", "-days", "2");
        OpenSslTool.run(dir, "req", "-config", "rill.cnf", "-extensions", "server", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:P-256", "-noenc", "-keyout", "server.key", "-out", "server.pem",
                "-subj", "/CN=localhost", "-days", "2", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "0x5EED");
        // The responder's database (the format of "openssl ca"): status, expiry, revocation, serial, file, subject.
        String expiry = ZonedDateTime.now(ZoneOffset.UTC).plusDays(2).format(DateTimeFormatter.ofPattern("yyMMddHHmmss"));
        Files.writeString(dir.resolve("index.txt"), "V\t" + expiry + "Z\t\t5EED\tunknown\t/CN=localhost\n");
        OpenSslTool.run(dir, "ocsp", "-index", "index.txt", "-rsigner", "ca.pem", "-rkey", "ca.key", "-CA", "ca.pem",
                "-issuer", "ca.pem", "-cert", "server.pem", "-respout", "resp.der", "-ndays", "1");
        response = Files.readAllBytes(dir.resolve("resp.der"));
    }

    @BeforeEach
    void countNativeObjects() {
        nativeObjects = SslProvider.OPENSSL.liveNativeObjects();
    }

    @AfterEach
    void noNativeObjectLeft() {
        assertEquals(nativeObjects, SslProvider.OPENSSL.liveNativeObjects(), "native contexts or engines left");
    }

    private static SslContextBuilder server(String protocol) throws SSLException {
        return SslContextBuilder.forServer(file("server.pem"), file("server.key")).sslProvider(SslProvider.OPENSSL)
                .protocols(protocol);
    }

    private static SslContextBuilder client(String protocol) throws SSLException {
        return SslContextBuilder.forClient().trustManager(file("ca.pem")).sslProvider(SslProvider.OPENSSL)
                .protocols(protocol);
    }

    private static File file(String name) {
        return dir.resolve(name).toFile();
    }

    @ParameterizedTest
    @ValueSource(strings = {"1_2", "1_3"})
    void sClientSeesTheStapledResponse(String version) throws Exception {
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        try (SslContext context = build(server("TLSv" + version.replace('_', '.')).enableOcsp(true));
                RillServer server = new RillServer(ch -> {
                    SslHandler handler = context.newHandler(ch.alloc());
                    handler.setOcspResponse(response);
                    ch.pipeline().addLast(handler, new EchoOnceThenClose(), OpenSslInteropTest.errorsTo(errors));
                })) {
            Peers.run(dir, "ping\n", List.of(OpenSslTool.path(), "s_client", "-connect", "127.0.0.1:" + server.port(),
                    "-CAfile", "ca.pem", "-servername", "localhost", "-tls" + version, "-status",
                    "-verify_return_error", "-ign_eof"))
                    .assertContains("OCSP Response Status: successful", "Cert Status: good",
                            "Verify return code: 0 (ok)", "ping");
            assertTrue(errors.isEmpty(), errors.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void aRillClientReadsTheStapledResponse(String protocol) throws Exception {
        try (SslContext serverContext = build(server(protocol).enableOcsp(true));
                SslContext clientContext = build(client(protocol).enableOcsp(true))) {
            assertArrayEquals(response, stapledResponseSeen(stapling(serverContext), clientContext));
        }
    }

    @Test
    void aClientThatDoesNotAskGetsNoResponse() throws Exception {
        try (SslContext serverContext = build(server("TLSv1.3").enableOcsp(true));
                SslContext clientContext = build(client("TLSv1.3"))) {
            assertNull(stapledResponseSeen(stapling(serverContext), clientContext));
        }
    }

    @Test
    void aServerWithoutAResponseStaplesNothing() throws Exception {
        try (SslContext serverContext = build(server("TLSv1.2").enableOcsp(true));
                SslContext clientContext = build(client("TLSv1.2").enableOcsp(true))) {
            assertNull(stapledResponseSeen(serverContext.newHandler(ByteBufAllocator.DEFAULT), clientContext));
        }
    }

    @Test
    void anSniHandlerStaplesTheResponseOfTheChosenHost() throws Exception {
        try (SslContext serverContext = build(server("TLSv1.3").enableOcsp(true));
                SslContext clientContext = build(client("TLSv1.3").enableOcsp(true))) {
            List<String> hosts = new ArrayList<>();
            SniHandler sni = new SniHandler(host -> serverContext) {
                @Override
                protected SslHandler newSslHandler(SslContext context, String hostname, ByteBufAllocator alloc) {
                    hosts.add(hostname);
                    SslHandler handler = super.newSslHandler(context, hostname, alloc);
                    handler.setOcspResponse(response);
                    return handler;
                }
            };
            TlsPeer serverPeer = new TlsPeer(sni);
            TlsPeer clientPeer = new TlsPeer(clientContext.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443));
            try {
                TlsPeer.exchange(clientPeer, serverPeer);
                assertTrue(clientPeer.handshakeSucceeded());
                assertEquals(List.of("localhost"), hosts);
                assertArrayEquals(response, clientPeer.handler().ocspResponse());
            } finally {
                serverPeer.dispose();
                clientPeer.dispose();
            }
        }
    }

    /** A server handler stapling {@link #response}, set before the handler joins a pipeline. */
    private static SslHandler stapling(SslContext context) {
        SslHandler handler = context.newHandler(ByteBufAllocator.DEFAULT);
        handler.setOcspResponse(response);
        return handler;
    }

    /**
     * Handshakes {@code server} with a client of {@code client} in memory: the response the
     * client's handler reports, checked to be its session's status response, before and after
     * the engines are freed.
     */
    private static byte[] stapledResponseSeen(SslHandler server, SslContext client) {
        TlsPeer serverPeer = new TlsPeer(server);
        TlsPeer clientPeer = new TlsPeer(client.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443));
        byte[] seen;
        try {
            TlsPeer.exchange(clientPeer, serverPeer);
            assertTrue(clientPeer.handshakeSucceeded());
            seen = clientPeer.handler().ocspResponse();
            List<byte[]> statuses = ((ExtendedSSLSession) clientPeer.handler().engine().getSession())
                    .getStatusResponses();
            assertEquals(seen == null ? 0 : 1, statuses.size());
            if (seen != null) {
                assertArrayEquals(seen, statuses.get(0));
            }
            assertNull(server.ocspResponse(), "a server is sent no OCSP response");
        } finally {
            serverPeer.dispose();
            clientPeer.dispose();
        }
        assertArrayEquals(seen, clientPeer.handler().ocspResponse(), "kept after the engine is freed");
        return seen;
    }

    @Test
    void misuseIsRefusedWithASpecificException() throws Exception {
        try (SslContext plain = build(server("TLSv1.3"));
                SslContext ocsp = build(server("TLSv1.3").enableOcsp(true));
                SslContext client = build(client("TLSv1.3").enableOcsp(true))) {
            SslHandler withoutOcsp = plain.newHandler(ByteBufAllocator.DEFAULT);
            assertMessage(IllegalStateException.class, "enableOcsp", () -> withoutOcsp.setOcspResponse(response));
            SslHandler ofClient = client.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443);
            assertMessage(IllegalStateException.class, "server", () -> ofClient.setOcspResponse(response));
            SslHandler handler = ocsp.newHandler(ByteBufAllocator.DEFAULT);
            assertThrows(NullPointerException.class, () -> handler.setOcspResponse(null));
            assertMessage(IllegalArgumentException.class, "empty", () -> handler.setOcspResponse(new byte[0]));
            TlsPeer started = new TlsPeer(handler);
            assertMessage(IllegalStateException.class, "handshake has started", () -> handler.setOcspResponse(response));
            started.dispose();
            // Never in a pipeline, so no channel frees these two.
            ((NativeEngine) withoutOcsp.engine()).free();
            ((NativeEngine) ofClient.engine()).free();
        }
    }

    @Test
    void theJdkProviderRefusesOcspStapling() throws Exception {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> SslContextBuilder.forClient().sslProvider(SslProvider.JDK).enableOcsp(true).build());
        assertTrue(e.getMessage().contains("OPENSSL"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> server("TLSv1.3").sslProvider(SslProvider.JDK)
                .enableOcsp(true).build());
        try (SslContext jdk = build(server("TLSv1.3").sslProvider(SslProvider.JDK))) {
            SslHandler handler = jdk.newHandler(ByteBufAllocator.DEFAULT);
            assertThrows(UnsupportedOperationException.class, () -> handler.setOcspResponse(response));
            assertNull(handler.ocspResponse());
        }
    }

    private static void assertMessage(Class<? extends Throwable> type, String part,
            org.junit.jupiter.api.function.Executable call) {
        Throwable t = assertThrows(type, call);
        assertTrue(t.getMessage().contains(part), t.getMessage());
    }
}
