package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.epoll.Epoll;

/**
 * A socks-proxy tunnel that carries nothing either way for {@code --idle-timeout} closes on both
 * sides, counting from the last byte relayed, not from when the tunnel opened.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocksProxyIdleTest {

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void aTunnelIdleForTheTimeoutClosesBothSidesCountingFromItsLastByte(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        try (ForkedExample proxy = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport,
                "--idle-timeout", "1");
             ServerSocket destination = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket("127.0.0.1", proxy.port())) {
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            int port = destination.getLocalPort();
            out.write(new byte[] {5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, (byte) (port >>> 8), (byte) port});
            assertEquals(0, in.readNBytes(12)[3], "CONNECT succeeded");
            try (Socket accepted = destination.accept()) {
                accepted.setSoTimeout(10_000);
                InputStream atDestination = accepted.getInputStream();
                // Bytes each way, the last of them well into the first second of the tunnel.
                for (int i = 0; i < 3; i++) {
                    out.write('a' + i);
                    assertEquals('a' + i, atDestination.read());
                    accepted.getOutputStream().write('A' + i);
                    assertEquals('A' + i, in.read());
                }
                long lastByte = System.nanoTime();
                assertEquals(-1, in.read(), "the client's side closes");
                long idle = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastByte);
                assertEquals(-1, atDestination.read(), "the destination's side closes");
                assertTrue(idle >= 900, "closed " + idle + " ms after the last byte, before the idle timeout");
            }
        }
    }
}
