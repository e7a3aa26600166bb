package io.rill.handler.ssl;

import static io.rill.handler.ssl.TlsFixtures.LOCALHOST;
import static io.rill.handler.ssl.TlsFixtures.build;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.buffer.ByteBufAllocator;

/**
 * An OPENSSL client resumes its session when it connects to the same peer (host and port)
 * again, against a server of either provider; its cache is bounded by the context's session
 * cache size. Connections run in memory ({@link TlsPeer}).
 */
class SessionResumptionTest {

    private int nativeObjects;

    @BeforeEach
    void openSslAvailable() {
        Assumptions.assumeTrue(SslProvider.OPENSSL.isAvailable(), () -> SslProvider.OPENSSL.unavailabilityCause());
        nativeObjects = SslProvider.OPENSSL.liveNativeObjects();
    }

    @AfterEach
    void everyNativeObjectWasFreed() {
        assertEquals(nativeObjects, SslProvider.OPENSSL.liveNativeObjects(), "native contexts or engines left");
    }

    private static SslContext client(String protocol, long cacheSize) {
        SslContextBuilder builder = SslContextBuilder.forClient().trustManager(LOCALHOST.certificate())
                .sslProvider(SslProvider.OPENSSL).protocols(protocol);
        return build(cacheSize < 0 ? builder : builder.sessionCacheSize(cacheSize));
    }

    private static SslContext server(SslProvider provider, String protocol) {
        return build(SslContextBuilder.forServer(LOCALHOST.key(), LOCALHOST.certificate()).sslProvider(provider)
                .protocols(protocol));
    }

    /** One connection to {@code port} with data both ways (TLS 1.3 tickets come after the handshake); whether it resumed. */
    private static boolean connect(SslContext client, SslContext server, int port) {
        TlsPeer serverPeer = new TlsPeer(server.newHandler(ByteBufAllocator.DEFAULT));
        TlsPeer clientPeer = new TlsPeer(client.newHandler(ByteBufAllocator.DEFAULT, "localhost", port));
        try {
            TlsPeer.exchange(clientPeer, serverPeer);
            assertTrue(clientPeer.handshakeSucceeded(), () -> clientPeer.exceptions.toString());
            serverPeer.write("ticket time");
            TlsPeer.exchange(clientPeer, serverPeer);
            assertEquals("ticket time", clientPeer.receivedText());
            return clientPeer.handler().isSessionReused();
        } finally {
            clientPeer.dispose();
            serverPeer.dispose();
        }
    }

    @ParameterizedTest
    @CsvSource({"OPENSSL, TLSv1.2", "OPENSSL, TLSv1.3", "JDK, TLSv1.2", "JDK, TLSv1.3"})
    void aClientResumesWhenItConnectsToTheSamePeerAgain(SslProvider serverProvider, String protocol) {
        try (SslContext server = server(serverProvider, protocol); SslContext client = client(protocol, -1)) {
            assertFalse(connect(client, server, 443), "the first handshake is a full one");
            assertTrue(connect(client, server, 443), "the second resumes");
            assertTrue(connect(client, server, 443), "and the third (TLS 1.3 tickets are single-use, new ones came)");
            assertFalse(connect(client, server, 8443), "another port is another peer");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void theCacheKeepsAtMostSessionCacheSizePeers(String protocol) {
        try (SslContext server = server(SslProvider.OPENSSL, protocol); SslContext client = client(protocol, 1)) {
            assertFalse(connect(client, server, 1));
            assertFalse(connect(client, server, 2)); // evicts port 1's session
            assertFalse(connect(client, server, 1), "evicted");
            assertTrue(connect(client, server, 1));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3"})
    void aJdkEngineDoesNotTellWhetherItResumed(String protocol) {
        try (SslContext jdk = build(SslContextBuilder.forClient().sslProvider(SslProvider.JDK).protocols(protocol))) {
            SslHandler handler = jdk.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443);
            assertThrows(UnsupportedOperationException.class, handler::isSessionReused);
        }
    }
}
