package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.epoll.Epoll;

/**
 * The socks-proxy relay holds a bounded amount for a destination that does not read: a client
 * pushing 256 MiB through it stalls after a few MiB (the kernel's socket buffers on both sides
 * plus the relay's high water mark), and everything arrives once the destination reads.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SocksProxyBackPressureTest {

    private static final int CHUNK = 64 << 10;
    private static final long TOTAL = 256L << 20;
    /** Two sockets' kernel buffers each way (a few MiB on Linux at most) plus 64 KiB in the relay. */
    private static final long STALL_BOUND = 32L << 20;

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void aDestinationThatDoesNotReadStallsTheClientWithinABound(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        try (ForkedExample proxy = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport);
             ServerSocket destination = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket("127.0.0.1", proxy.port())) {
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            int port = destination.getLocalPort();
            out.write(new byte[] {5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, (byte) (port >>> 8), (byte) port});
            byte[] reply = in.readNBytes(12);
            assertEquals(0, reply[3], "CONNECT succeeded");
            Socket accepted = destination.accept();

            BlockingQueue<Long> progress = new LinkedBlockingQueue<>();
            CompletableFuture<Void> writer = TestThreads.run("pusher", () -> {
                byte[] chunk = new byte[CHUNK];
                try {
                    for (long sent = 0; sent < TOTAL; sent += CHUNK) {
                        chunk[0] = (byte) (sent / CHUNK);
                        out.write(chunk);
                        progress.add(sent + CHUNK);
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            // The writer blocks once the relay stops reading: no progress for two seconds is the stall.
            long written = 0;
            for (Long p; (p = progress.poll(2, TimeUnit.SECONDS)) != null; ) {
                written = p;
                assertTrue(written <= STALL_BOUND, "the relay kept reading: " + written + " bytes accepted");
            }
            assertTrue(written > 0 && written <= STALL_BOUND, "stalled after " + written + " bytes");
            System.out.println(transport + ": the client stalled after " + written + " bytes");

            // The destination reads: everything arrives, in order.
            try (accepted) {
                InputStream fromProxy = accepted.getInputStream();
                byte[] chunk = new byte[CHUNK];
                for (long got = 0; got < TOTAL; got += CHUNK) {
                    byte[] read = fromProxy.readNBytes(CHUNK);
                    chunk[0] = (byte) (got / CHUNK);
                    assertArrayEquals(chunk, read, "chunk at " + got);
                }
            }
            writer.get(30, TimeUnit.SECONDS);
        }
    }
}
