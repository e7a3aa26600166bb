package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The real port-unification server, in a JVM of its own, against a gzip bomb sent over a real
 * socket: the connection is closed with a log line naming the limit, and the server's memory
 * stays bounded (on 697ff05, 1 GB of requests in 2.4 MB of gzip grew it by 4.4 GB).
 */
@EnabledOnOs(OS.LINUX) // reads /proc
class PortUnificationBombTest {

    /** Peak growth of the server's resident memory allowed for one bomb: a small multiple of its chunk and buffers. */
    private static final long MAX_GROWTH_MIB = 96;

    /** 256 MB of pipelined requests in about 600 KB of gzip. */
    private static byte[] bomb;

    @BeforeAll
    static void makeBomb() throws IOException {
        byte[] block = "GET / HTTP/1.1\r\nHost: a\r\n\r\n".repeat(2400).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(wire, 65536)) {
            for (long n = 0; n < 256L << 20; n += block.length) {
                gz.write(block);
            }
        }
        bomb = wire.toByteArray();
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(30_000);
        return s;
    }

    /** Sends the bomb; the server may close the connection before it is all sent. */
    private static CompletableFuture<Void> send(Socket s) {
        return TestThreads.run("bomb-sender", () -> {
            try {
                OutputStream out = s.getOutputStream();
                out.write(bomb);
                out.flush();
            } catch (SocketException closedUnderUs) {
                // expected: the server refused the stream and closed
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Reads (and drops) until the server closes; true if it did, by FIN or by reset. */
    private static boolean closedByServer(InputStream in) throws IOException {
        try {
            in.transferTo(OutputStream.nullOutputStream());
            return true;
        } catch (SocketException reset) {
            return true;
        }
    }

    private static void assertStillServes(ForkedExample server) throws IOException {
        try (Socket s = connect(server.port())) {
            s.getOutputStream().write("GET /plaintext HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 200 OK") && response.endsWith("Hello, World!"), response);
        }
    }

    @Test
    void aBombFromAClientThatNeverReadsIsClosedForItsRatioWithBoundedMemory() throws Exception {
        try (ForkedExample server = new ForkedExample("port-unification", "--port", "0", "--transport", "nio")) {
            assertStillServes(server); // warmed up: what is loaded now is not the bomb's doing
            long baseline = server.statusKib("VmRSS");
            try (Socket attacker = connect(server.port())) {
                CompletableFuture<Void> sending = send(attacker);
                sending.get(60, TimeUnit.SECONDS);
                // Only now does the attacker look at its input, to see the connection end.
                assertTrue(closedByServer(attacker.getInputStream()));
            }
            String log = server.awaitLog("(raise with --max-inflate-ratio)", 10, TimeUnit.SECONDS);
            assertTrue(log.contains("GZIP stream expands more than the maximum ratio of 100 (maxRatio)")
                    && log.contains("(raise with --max-inflate-ratio)"), log);
            assertTrue(server.peakGrowthMib(baseline) < MAX_GROWTH_MIB, server.peakGrowthMib(baseline) + " MiB");
            assertStillServes(server);
        }
    }

    @Test
    void withoutARatioLimitTheSizeLimitEndsTheBombAndMemoryStaysBounded() throws Exception {
        int maxInflated = 4 << 20;
        try (ForkedExample server = new ForkedExample("port-unification", "--port", "0", "--transport", "nio",
                "--max-inflate-ratio", "0", "--max-inflated", Integer.toString(maxInflated))) {
            assertStillServes(server);
            long baseline = server.statusKib("VmRSS");
            try (Socket attacker = connect(server.port())) {
                CompletableFuture<Void> sending = send(attacker);
                // This client reads its answers (or the server would wait for it, as it should), so
                // inflating goes on until the size limit.
                assertTrue(closedByServer(attacker.getInputStream()));
                sending.get(60, TimeUnit.SECONDS);
            }
            String log = server.awaitLog("(raise with --max-inflated)", 10, TimeUnit.SECONDS);
            assertTrue(log.contains("GZIP stream decompresses to more than the maximum of " + maxInflated
                    + " bytes (maxDecompressedBytes)") && log.contains("(raise with --max-inflated)"), log);
            assertTrue(server.peakGrowthMib(baseline) < MAX_GROWTH_MIB, server.peakGrowthMib(baseline) + " MiB");
            assertStillServes(server);
        }
    }

    @Test
    void theBombIsABomb() {
        assertTrue(bomb.length < 1 << 20, bomb.length + " bytes");
        assertEquals(0x1f, bomb[0]);
    }
}
