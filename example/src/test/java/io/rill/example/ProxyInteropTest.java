package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.epoll.Epoll;
import io.rill.example.ForkedExample.Outcome;

/**
 * Rill's proxy pieces against real peers, each over NIO and epoll ({@code --transport}): curl
 * through the {@code socks-proxy} example ({@code --socks5}, {@code --socks5-hostname}, with and
 * without a password); {@code http-client --proxy} through that proxy, through Debian's
 * {@code danted} and through an HTTP CONNECT relay; {@code http-hello --proxy-protocol} behind
 * HAProxy with {@code send-proxy} and {@code send-proxy-v2}. Real peers a machine lacks are skipped
 * ({@code .ci/run} installs curl, dante-server and haproxy).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProxyInteropTest {

    private static void needTransport(String transport) {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
    }

    private static boolean onPath(String command) {
        try {
            return new ProcessBuilder("sh", "-c", "command -v " + command).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static Outcome curl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl did not end");
        return new Outcome(p.exitValue(), out, err, 0);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Starts {@code command} and waits until something listens on 127.0.0.1:{@code port}. */
    private static Process startListening(int port, Path log, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return p;
            } catch (IOException notYet) {
                if (!p.isAlive()) {
                    break;
                }
                // Polling a port we do not own: there is no event to wait on.
                p.waitFor(50, TimeUnit.MILLISECONDS);
            }
        }
        p.destroyForcibly();
        throw new AssertionError(command[0] + " did not listen on " + port + ": " + Files.readString(log));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void curlThroughTheSocksProxyExample(String transport) throws Exception {
        needTransport(transport);
        assumeTrue(onPath("curl"), "curl is not installed");
        try (ForkedExample hello = new ForkedExample("http-hello", "--port", "0", "--transport", transport);
             ForkedExample proxy = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport);
             ForkedExample guarded = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport,
                     "--username", "ann", "--password", "p4ss")) {
            String socks = "127.0.0.1:" + proxy.port();
            assertEquals("Hello, World!", curl("--socks5", socks, "http://127.0.0.1:" + hello.port() + "/plaintext").out());
            assertEquals("Hello, World!",
                    curl("--socks5-hostname", socks, "http://localhost:" + hello.port() + "/plaintext").out());
            assertEquals("Hello, World!", curl("--proxy", "socks5h://ann:p4ss@127.0.0.1:" + guarded.port(),
                    "http://localhost:" + hello.port() + "/plaintext").out());
            Outcome wrong = curl("--proxy", "socks5h://ann:nope@127.0.0.1:" + guarded.port(),
                    "http://localhost:" + hello.port() + "/plaintext");
            assertTrue(wrong.status() != 0, "a wrong password is refused: " + wrong);
            // A destination that refuses: reply 0x05, which curl reports as SOCKS5 error 5.
            Outcome refused = curl("--socks5-hostname", socks, "http://127.0.0.1:" + freePort() + "/");
            assertEquals(97, refused.status(), refused.toString());
            assertTrue(refused.err().contains("(5)"), refused.err());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void theSocksProxyRefusesOtherCommandsAndAddressTypesWithTheirCodes(String transport) throws Exception {
        needTransport(transport);
        try (ForkedExample proxy = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport)) {
            // BIND (0x02): reply 0x07, command not supported.
            assertArrayEquals(new byte[] {5, 0, 5, 7}, exchange(proxy.port(),
                    new byte[] {5, 1, 0, 5, 2, 0, 1, 127, 0, 0, 1, 0, 80}, 4));
            // Address type 0x02: reply 0x08, address type not supported.
            assertArrayEquals(new byte[] {5, 0, 5, 8}, exchange(proxy.port(),
                    new byte[] {5, 1, 0, 5, 1, 0, 2, 127, 0, 0, 1, 0, 80}, 4));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void socks_13_theSocksProxyClosesSlowHandshakesAndIdleTunnels(String transport) throws Exception {
        needTransport(transport);
        try (ForkedExample proxy = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport,
                "--handshake-timeout-ms", "300", "--idle-timeout", "1");
             ServerSocket destination = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            // Half a greeting, then nothing: closed at the handshake deadline.
            try (Socket s = new Socket("127.0.0.1", proxy.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(new byte[] {5, 2});
                long start = System.nanoTime();
                assertEquals(-1, s.getInputStream().read(), "closed without an answer");
                assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
            }
            // A tunnel that carries nothing: closed after the idle timeout, the destination's side too.
            try (Socket s = new Socket("127.0.0.1", proxy.port())) {
                s.setSoTimeout(10_000);
                int port = destination.getLocalPort();
                s.getOutputStream().write(new byte[] {5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, (byte) (port >>> 8), (byte) port});
                assertEquals(0, s.getInputStream().readNBytes(12)[3], "CONNECT succeeded");
                try (Socket accepted = destination.accept()) {
                    accepted.setSoTimeout(10_000);
                    assertEquals(-1, s.getInputStream().read(), "the client's side closes when idle");
                    assertEquals(-1, accepted.getInputStream().read(), "and the destination's");
                }
            }
        }
    }

    /** Sends {@code request} and returns the first {@code count} bytes of the answer (greeting reply, then REP). */
    private static byte[] exchange(int port, byte[] request, int count) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request);
            InputStream in = s.getInputStream();
            byte[] answer = in.readNBytes(count);
            return answer;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void httpClientThroughTheSocksProxyExampleAndAnHttpConnectRelay(String transport) throws Exception {
        needTransport(transport);
        try (ForkedExample hello = new ForkedExample("http-hello", "--port", "0", "--transport", transport);
             ForkedExample proxy = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport);
             ConnectRelay relay = new ConnectRelay(null);
             ConnectRelay guarded = new ConnectRelay("Basic dTpw")) {
            String url = "http://localhost:" + hello.port() + "/plaintext";
            Outcome socks = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url", url,
                    "--proxy", "socks5://127.0.0.1:" + proxy.port());
            assertEquals(0, socks.status(), socks.toString());
            assertTrue(socks.out().endsWith("Hello, World!"), socks.out());
            Outcome http = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url", url,
                    "--proxy", "http://127.0.0.1:" + relay.port());
            assertEquals(0, http.status(), http.toString());
            assertTrue(http.out().endsWith("Hello, World!"), http.out());
            Outcome authed = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url", url,
                    "--proxy", "http://u:p@127.0.0.1:" + guarded.port());
            assertTrue(authed.out().endsWith("Hello, World!"), authed.toString());
            Outcome denied = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url", url,
                    "--proxy", "http://127.0.0.1:" + guarded.port());
            assertEquals(1, denied.status(), denied.toString());
            assertTrue(denied.err().contains("HTTP proxy 127.0.0.1:" + guarded.port()
                    + " answered 407 Proxy Authentication Required"), denied.err());
            Outcome refused = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url",
                    "http://127.0.0.1:" + freePort() + "/", "--proxy", "socks5://127.0.0.1:" + proxy.port());
            assertEquals(1, refused.status(), refused.toString());
            assertTrue(refused.err().contains("SOCKS5 proxy 127.0.0.1:" + proxy.port()
                    + " refused: connection refused (reply 0x05)"), refused.err());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void httpsRunsThroughBothKindsOfTunnel(String transport) throws Exception {
        needTransport(transport);
        try (ForkedExample hello = new ForkedExample("http-hello", "--port", "0", "--transport", transport, "--tls");
             ForkedExample proxy = new ForkedExample("socks-proxy", "--port", "0", "--transport", transport);
             ConnectRelay relay = new ConnectRelay(null)) {
            String url = "https://localhost:" + hello.port() + "/plaintext";
            for (String via : new String[] {"socks5://127.0.0.1:" + proxy.port(), "http://127.0.0.1:" + relay.port()}) {
                Outcome fetched = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url", url,
                        "--trust", hello.certificate().toString(), "--proxy", via);
                assertEquals(0, fetched.status(), via + ": " + fetched);
                assertTrue(fetched.out().endsWith("Hello, World!"), fetched.out());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void httpClientThroughDante(String transport, @TempDir Path dir) throws Exception {
        needTransport(transport);
        assumeTrue(onPath("danted"), "danted is not installed (apt-get install dante-server)");
        int port = freePort();
        Path conf = dir.resolve("danted.conf");
        Files.writeString(conf, String.join("\n",
                "logoutput: stderr",
                "internal: 127.0.0.1 port = " + port,
                "external: 127.0.0.1",
                "socksmethod: none",
                "clientmethod: none",
                "client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }",
                "socks pass { from: 127.0.0.0/8 to: 0.0.0.0/0 command: connect }", ""));
        Process dante = startListening(port, dir.resolve("danted.log"), "danted", "-f", conf.toString(),
                "-p", dir.resolve("danted.pid").toString());
        try (ForkedExample hello = new ForkedExample("http-hello", "--port", "0", "--transport", transport)) {
            Outcome fetched = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url",
                    "http://localhost:" + hello.port() + "/plaintext", "--proxy", "socks5://127.0.0.1:" + port);
            assertEquals(0, fetched.status(), fetched + "\ndanted: " + Files.readString(dir.resolve("danted.log")));
            assertTrue(fetched.out().endsWith("Hello, World!"), fetched.out());
            Outcome refused = ForkedExample.runToEnd("", "http-client", "--transport", transport, "--url",
                    "http://127.0.0.1:" + freePort() + "/", "--proxy", "socks5://127.0.0.1:" + port);
            assertEquals(1, refused.status(), refused.toString());
            assertTrue(refused.err().contains("SOCKS5 proxy 127.0.0.1:" + port + " refused: "), refused.err());
        } finally {
            dante.destroy();
            dante.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void httpHelloBehindHaproxyLearnsTheClientAddress(String transport, @TempDir Path dir) throws Exception {
        needTransport(transport);
        assumeTrue(onPath("haproxy") && onPath("curl"), "haproxy or curl is not installed");
        try (ForkedExample hello = new ForkedExample("http-hello", "--port", "0", "--transport", transport,
                "--proxy-protocol")) {
            for (String sendProxy : new String[] {"send-proxy", "send-proxy-v2"}) {
                int port = freePort();
                Path conf = dir.resolve(sendProxy + ".cfg");
                Files.writeString(conf, String.join("\n",
                        "defaults",
                        "  mode tcp",
                        "  timeout connect 5s",
                        "  timeout client 30s",
                        "  timeout server 30s",
                        "frontend in",
                        "  bind 127.0.0.1:" + port,
                        "  default_backend hello",
                        "backend hello",
                        "  server hello 127.0.0.1:" + hello.port() + " " + sendProxy, ""));
                Process haproxy = startListening(port, dir.resolve(sendProxy + ".log"), "haproxy", "-db", "-f",
                        conf.toString());
                try {
                    Outcome report = curl("--local-port", "47000-47999", "http://127.0.0.1:" + port + "/client");
                    assertEquals(0, report.status(), report.toString());
                    // The client is curl (its port in the range it was given); the peer of the TCP connection is haproxy.
                    assertTrue(report.out().matches("client 127\\.0\\.0\\.1:47\\d\\d\\d via 127\\.0\\.0\\.1:\\d+\n"),
                            sendProxy + ": " + report.out());
                    assertEquals("Hello, World!", curl("http://127.0.0.1:" + port + "/plaintext").out());
                } finally {
                    haproxy.destroy();
                    haproxy.waitFor(10, TimeUnit.SECONDS);
                }
            }
            // Straight to the server, without a header: refused, the connection closed, no answer.
            Outcome direct = curl("http://127.0.0.1:" + hello.port() + "/client");
            assertTrue(direct.status() != 0, direct.toString());
        }
    }
}
