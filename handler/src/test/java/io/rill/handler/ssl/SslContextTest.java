package io.rill.handler.ssl;

import static io.rill.handler.ssl.TlsFixtures.CLIENT;
import static io.rill.handler.ssl.TlsFixtures.LOCALHOST;
import static io.rill.handler.ssl.TlsFixtures.OTHER_HOST;
import static io.rill.handler.ssl.TlsFixtures.build;
import static io.rill.handler.ssl.TlsFixtures.clientTrusting;
import static io.rill.handler.ssl.TlsFixtures.serverBuilder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.ssl.util.InsecureTrustManagerFactory;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * What an SslContext's settings do to a real handshake (in EmbeddedChannels).
 *
 * <p>Case IDs such as T-07 in this file are those of docs/security-cases.md.
 */
class SslContextTest {
    /** The provider under test; a subclass reruns every test with another. */
    SslProvider provider() {
        return SslProvider.JDK;
    }

    @org.junit.jupiter.api.BeforeEach
    void selectProvider() {
        TlsFixtures.provider = provider();
    }


    /** Runs a handshake between a server and a client connecting to {@code host}; returns {server, client}. */
    private static TlsPeer[] handshake(SslContext server, SslContext client, String host) {
        TlsPeer s = new TlsPeer(server.newHandler(ByteBufAllocator.DEFAULT));
        TlsPeer c = new TlsPeer(client.newHandler(ByteBufAllocator.DEFAULT, host, 8443));
        TlsPeer.exchange(c, s);
        return new TlsPeer[] {s, c};
    }

    private static void dispose(TlsPeer[] peers) {
        for (TlsPeer p : peers) {
            p.dispose();
        }
    }

    @Test
    @DisplayName("T-08, TL-07: clients verify the host name by default")
    void clientsVerifyTheHostNameByDefault() {
        // T-08 / TL-07: trusted certificate for other.test, connection to 127.0.0.1: refused.
        SslContext client = build(clientTrusting(OTHER_HOST));
        assertEquals("HTTPS", client.endpointIdentificationAlgorithm());
        TlsPeer[] peers = handshake(build(serverBuilder(OTHER_HOST)), client, "127.0.0.1");
        Throwable cause = peers[1].handler().handshakeFuture().cause();
        assertInstanceOf(SSLHandshakeException.class, cause);
        assertTrue(String.valueOf(cause.getCause()).contains("127.0.0.1"), String.valueOf(cause.getCause()));
        assertFalse(peers[1].channel.isOpen());
        dispose(peers);
    }

    @Test
    void hostNameVerificationCanBeTurnedOffExplicitly() {
        SslContext client = build(clientTrusting(OTHER_HOST).endpointIdentificationAlgorithm(null));
        TlsPeer[] peers = handshake(build(serverBuilder(OTHER_HOST)), client, "127.0.0.1");
        assertTrue(peers[1].handshakeSucceeded());
        dispose(peers);
    }

    @Test
    void aMatchingIpAddressSanIsAccepted() {
        TlsPeer[] peers = handshake(build(serverBuilder(LOCALHOST)), build(clientTrusting(LOCALHOST)), "127.0.0.1");
        assertTrue(peers[1].handshakeSucceeded());
        dispose(peers);
    }

    @Test
    @DisplayName("TL-07: a self signed certificate is refused by the default trust roots")
    void aSelfSignedCertificateIsRefusedByTheDefaultTrustRoots() {
        // TL-07: nothing but the JDK's CA roots is trusted unless configured.
        TlsPeer[] peers = handshake(build(serverBuilder(LOCALHOST)), build(SslContextBuilder.forClient()), "localhost");
        assertInstanceOf(SSLHandshakeException.class, peers[1].handler().handshakeFuture().cause());
        dispose(peers);
    }

    @Test
    void theInsecureTrustManagerAcceptsAnyCertificateAndHost() {
        SslContext client = build(SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE));
        TlsPeer[] peers = handshake(build(serverBuilder(OTHER_HOST)), client, "127.0.0.1");
        assertTrue(peers[1].handshakeSucceeded());
        dispose(peers);
    }

    @Test
    void requiredClientAuthRefusesAClientWithoutACertificate() {
        SslContext server = build(serverBuilder(LOCALHOST).clientAuth(ClientAuth.REQUIRE).trustManager(CLIENT.certificate()));
        TlsPeer[] peers = handshake(server, build(clientTrusting(LOCALHOST)), "localhost");
        assertInstanceOf(SSLHandshakeException.class, peers[0].handler().handshakeFuture().cause());
        assertFalse(peers[0].channel.isOpen());
        dispose(peers);
    }

    @Test
    void requiredClientAuthAcceptsATrustedClientCertificate() throws Exception {
        SslContext server = build(serverBuilder(LOCALHOST).clientAuth(ClientAuth.REQUIRE).trustManager(CLIENT.certificate()));
        SslContext client = build(clientTrusting(LOCALHOST).keyManager(CLIENT.key(), CLIENT.certificate()));
        TlsPeer[] peers = handshake(server, client, "localhost");
        assertTrue(peers[0].handshakeSucceeded());
        X509Certificate peer = (X509Certificate) peers[0].handler().engine().getSession().getPeerCertificates()[0];
        assertEquals(CLIENT.certificate(), peer);
        dispose(peers);
    }

    @Test
    void requiredClientAuthRefusesAnUntrustedClientCertificate() {
        SslContext server = build(serverBuilder(LOCALHOST).clientAuth(ClientAuth.REQUIRE).trustManager(CLIENT.certificate()));
        SslContext client = build(clientTrusting(LOCALHOST).keyManager(OTHER_HOST.key(), OTHER_HOST.certificate()));
        TlsPeer[] peers = handshake(server, client, "localhost");
        assertFalse(peers[0].handshakeSucceeded());
        dispose(peers);
    }

    @Test
    void optionalClientAuthAcceptsAClientWithoutACertificate() {
        SslContext server = build(serverBuilder(LOCALHOST).clientAuth(ClientAuth.OPTIONAL).trustManager(CLIENT.certificate()));
        TlsPeer[] peers = handshake(server, build(clientTrusting(LOCALHOST)), "localhost");
        assertTrue(peers[0].handshakeSucceeded());
        dispose(peers);
    }

    @Test
    void alpnPicksTheServersPreferredProtocolThatTheClientOffers() {
        SslContext server = build(serverBuilder(LOCALHOST).applicationProtocols(
                ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
        SslContext client = build(clientTrusting(LOCALHOST).applicationProtocols(ApplicationProtocolNames.HTTP_1_1));
        TlsPeer[] peers = handshake(server, client, "localhost");
        assertEquals("http/1.1", peers[0].handler().applicationProtocol());
        assertEquals("http/1.1", peers[1].handler().applicationProtocol());
        dispose(peers);
        peers = handshake(server, build(clientTrusting(LOCALHOST)), "localhost");
        assertNull(peers[1].handler().applicationProtocol(), "no ALPN offered, none chosen");
        dispose(peers);
    }

    @Test
    void protocolsCipherSuitesAndSessionCacheAreApplied() {
        String suite = "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256";
        SslContext server = build(serverBuilder(LOCALHOST).protocols("TLSv1.2").ciphers(List.of(suite))
                .sessionCacheSize(42).sessionTimeout(600));
        assertEquals(42, server.sessionContext().getSessionCacheSize());
        assertEquals(600, server.sessionContext().getSessionTimeout());
        assertEquals(List.of("TLSv1.2"), server.protocols());
        TlsPeer[] peers = handshake(server, build(clientTrusting(LOCALHOST)), "localhost");
        assertEquals(suite, peers[1].handler().engine().getSession().getCipherSuite());
        assertEquals("TLSv1.2", peers[1].handler().engine().getSession().getProtocol());
        dispose(peers);
    }

    @Test
    void theDefaultsAreTls13And12Only() {
        SslContext client = build(SslContextBuilder.forClient());
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), client.protocols());
        assertEquals(ClientAuth.NONE, build(serverBuilder(LOCALHOST)).clientAuth());
        assertEquals(SslProvider.OPENSSL.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK, client.provider());
        assertEquals(client.provider(), SslProvider.defaultProvider());
    }

    @Test
    void misconfigurationsFailEarly() {
        assertThrows(IllegalArgumentException.class,
                () -> SslContextBuilder.forClient().sslProvider(provider()).protocols("TLSv9").build());
        assertThrows(IllegalArgumentException.class,
                () -> SslContextBuilder.forClient().sslProvider(provider()).ciphers(List.of("TLS_NOT_A_SUITE")).build());
        assertThrows(IllegalArgumentException.class, () -> SslContextBuilder.forServer(null, new X509Certificate[0]));
        assertEquals(SslProvider.OPENSSL.isAvailable(), SslProvider.OPENSSL.unavailabilityCause() == null);
    }

    @Test
    void selfSignedCertificatesCarryTheirNamesAndPrivateFiles() throws Exception {
        X509Certificate cert = LOCALHOST.certificate();
        cert.verify(cert.getPublicKey());
        assertEquals(3, cert.getVersion());
        assertEquals("CN=localhost", cert.getSubjectX500Principal().getName());
        assertEquals(List.of(List.of(2, "localhost"), List.of(7, "127.0.0.1"), List.of(7, "0:0:0:0:0:0:0:1")),
                List.copyOf(cert.getSubjectAlternativeNames()).stream().map(List::copyOf).toList());
        assertEquals(-1, cert.getBasicConstraints(), "not a CA");
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(LOCALHOST.privateKeyFile().toPath())));
        SelfSignedCertificate rsa = SelfSignedCertificate.builder().algorithm("RSA").dnsNames("rsa.test").build();
        try {
            assertEquals("RSA", rsa.certificate().getPublicKey().getAlgorithm());
            assertEquals("SHA256withRSA", rsa.certificate().getSigAlgName());
            SslContext fromFiles = SslContextBuilder.forServer(rsa.certificateFile(), rsa.privateKeyFile()).build();
            TlsPeer[] peers = handshake(fromFiles, build(clientTrusting(rsa)), "rsa.test");
            assertTrue(peers[1].handshakeSucceeded());
            dispose(peers);
        } finally {
            rsa.delete();
        }
    }

    @Test
    void opensslAcceptsTheSelfSignedCertificate() throws Exception {
        OpenSslTool.assumeAvailable();
        String text = OpenSslTool.run(LOCALHOST.certificateFile().getParentFile().toPath(),
                "x509", "-in", LOCALHOST.certificateFile().getName(), "-noout", "-text");
        assertTrue(text.contains("DNS:localhost, IP Address:127.0.0.1"), text);
        assertTrue(text.contains("ecdsa-with-SHA256"), text);
        String verify = OpenSslTool.run(LOCALHOST.certificateFile().getParentFile().toPath(), "verify", "-CAfile",
                LOCALHOST.certificateFile().getName(), LOCALHOST.certificateFile().getName());
        assertTrue(verify.contains("OK"), verify);
    }
}
