package io.rill.handler.ssl;

import static io.rill.handler.ssl.TlsFixtures.LOCALHOST;
import static io.rill.handler.ssl.TlsFixtures.build;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.ByteBufAllocator;

/** The debugging key log: NSS key log lines from OPENSSL handshakes; refused for JDK. */
class KeyLogTest {

    /** {@code LABEL <client random: 32 bytes hex> <secret hex>}, as Wireshark reads it. */
    private static final Pattern NSS_LINE = Pattern.compile("[A-Z_0-9]+ [0-9a-f]{64} [0-9a-f]{64,128}");

    @TempDir
    Path dir;

    private static void handshake(SslContextBuilder client, String protocol) {
        Assumptions.assumeTrue(SslProvider.OPENSSL.isAvailable(), () -> SslProvider.OPENSSL.unavailabilityCause());
        int nativeObjects = SslProvider.OPENSSL.liveNativeObjects();
        try (SslContext server = build(SslContextBuilder.forServer(LOCALHOST.key(), LOCALHOST.certificate())
                .sslProvider(SslProvider.OPENSSL).protocols(protocol));
                SslContext clientContext = build(client.sslProvider(SslProvider.OPENSSL).protocols(protocol))) {
            TlsPeer serverPeer = new TlsPeer(server.newHandler(ByteBufAllocator.DEFAULT));
            TlsPeer clientPeer = new TlsPeer(clientContext.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443));
            TlsPeer.exchange(clientPeer, serverPeer);
            assertTrue(clientPeer.handshakeSucceeded());
            serverPeer.dispose();
            clientPeer.dispose();
        }
        assertEquals(nativeObjects, SslProvider.OPENSSL.liveNativeObjects(), "native contexts or engines left");
    }

    @Test
    void aTls13HandshakeLogsItsTrafficSecrets() {
        List<String> lines = new CopyOnWriteArrayList<>();
        handshake(SslContextBuilder.forClient().trustManager(LOCALHOST.certificate()).keyLog(lines::add), "TLSv1.3");
        for (String label : List.of("CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET",
                "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0")) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(label + " ")), label + " in " + lines);
        }
        lines.forEach(l -> assertTrue(NSS_LINE.matcher(l).matches(), l));
        // One client random per connection: every line names the same one.
        assertEquals(1, lines.stream().map(l -> l.split(" ")[1]).distinct().count(), lines.toString());
    }

    @Test
    void aTls12HandshakeLogsItsMasterSecretToAFile() throws Exception {
        Path file = dir.resolve("keys.log");
        handshake(SslContextBuilder.forClient().trustManager(LOCALHOST.certificate()).keyLogFile(file), "TLSv1.2");
        List<String> lines = Files.readAllLines(file);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("CLIENT_RANDOM "), lines.get(0));
        assertTrue(NSS_LINE.matcher(lines.get(0)).matches(), lines.get(0));
    }

    @Test
    void aFailingSinkDoesNotBreakTheHandshake() {
        handshake(SslContextBuilder.forClient().trustManager(LOCALHOST.certificate()).keyLog(line -> {
            throw new IllegalStateException("sink broken");
        }), "TLSv1.3");
    }

    @Test
    void theJdkProviderRefusesAKeyLog() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> SslContextBuilder.forClient().sslProvider(SslProvider.JDK).keyLog(line -> { }).build());
        assertTrue(e.getMessage().contains("OPENSSL"), e.getMessage());
    }
}
