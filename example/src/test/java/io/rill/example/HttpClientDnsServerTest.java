package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.example.ForkedExample.Outcome;

/**
 * {@code http-client --dns-server}: the example, in a JVM of its own, resolves the URL's host
 * through a dnsmasq the test starts (and only through it: the name exists nowhere else).
 */
class HttpClientDnsServerTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void fetchesAUrlWhoseHostOnlyTheGivenDnsServerKnows(String transport) throws Exception {
        assumeTrue(dnsmasq() != null, "dnsmasq is not installed (.ci/run installs it)");
        assumeTrue(!transport.equals("epoll") || io.rill.channel.epoll.Epoll.isAvailable(), "epoll not available");
        try (ForkedExample server = new ForkedExample("http-hello", "--port", "0");
             Dns dns = Dns.start(dir, "127.0.0.1 hello.rill-dns-test\n")) {
            String url = "http://hello.rill-dns-test:" + server.port() + "/";
            Outcome fetched = ForkedExample.runToEnd("", "http-client", "--url", url, "--transport", transport,
                    "--dns-server", "127.0.0.1:" + dns.port);
            assertEquals(0, fetched.status(), fetched.err());
            assertTrue(fetched.out().startsWith("HTTP/1.1 200 OK\n") && fetched.out().endsWith("Hello, World!"), fetched.out());

            Outcome unknown = ForkedExample.runToEnd("", "http-client", "--url", "http://nope.rill-dns-test:1/",
                    "--transport", transport, "--dns-server", "127.0.0.1:" + dns.port);
            assertEquals(1, unknown.status(), unknown.err());
            assertTrue(unknown.err().contains("nope.rill-dns-test") && unknown.err().contains("NXDOMAIN"), unknown.err());
        }
    }

    @Test
    void aDnsServerThatIsNotAnIpAndPortIsAUsageError() throws Exception {
        Outcome bad = ForkedExample.runToEnd("", "http-client", "--url", "http://x/", "--dns-server", "dns.example:53");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("--dns-server 'dns.example:53': want IP:PORT"), bad.err());
    }

    private static Path dnsmasq() {
        for (String d : List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin")) {
            if (Files.isExecutable(Path.of(d, "dnsmasq"))) {
                return Path.of(d, "dnsmasq");
            }
        }
        return null;
    }

    /** dnsmasq on 127.0.0.1, answering the hosts file for its domain and NXDOMAIN for the rest of it. */
    private static final class Dns implements AutoCloseable {
        final Process process;
        final int port;

        private Dns(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        static Dns start(Path dir, String hosts) throws Exception {
            // Started as root, dnsmasq drops to nobody, who must be able to read the file.
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path file = dir.resolve("hosts");
            Files.writeString(file, hosts);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            // A port free now may be taken before dnsmasq binds it (other builds share the machine): try again then.
            IOException last = null;
            for (int attempt = 0; attempt < 5; attempt++) {
                int port = freePort();
                Process p = new ProcessBuilder(dnsmasq().toString(), "--no-daemon", "--port=" + port,
                        "--listen-address=127.0.0.1", "--bind-interfaces", "--no-resolv", "--no-hosts", "--addn-hosts=" + file,
                        "--local=/rill-dns-test/", "--conf-file=/dev/null", "--pid-file=")
                        .redirectErrorStream(true).redirectOutput(dir.resolve("dnsmasq.log").toFile()).start();
                Dns dns = new Dns(p, port);
                try {
                    dns.awaitAnswer(dir);
                    return dns;
                } catch (IOException e) {
                    last = e;
                }
            }
            throw last;
        }

        /** A port free for both UDP and TCP on 127.0.0.1 at this moment. */
        private static int freePort() throws IOException {
            for (int i = 0; i < 50; i++) {
                try (DatagramSocket u = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"));
                     ServerSocket t = new ServerSocket(u.getLocalPort(), 1, InetAddress.getByName("127.0.0.1"))) {
                    return t.getLocalPort();
                } catch (IOException taken) {
                    // the TCP side of that port is in use: another
                }
            }
            throw new IOException("no port free for both UDP and TCP");
        }

        /** Sends a bare query until dnsmasq answers it; each try waits 100 ms on the socket, 10 s in all. */
        private void awaitAnswer(Path dir) throws Exception {
            byte[] query = {0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 5, 'p', 'r', 'o', 'b', 'e', 0, 0, 1, 0, 1};
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            try (DatagramSocket s = new DatagramSocket()) {
                s.setSoTimeout(100);
                while (System.nanoTime() < deadline && process.isAlive()) {
                    s.send(new DatagramPacket(query, query.length, InetAddress.getByName("127.0.0.1"), port));
                    try {
                        s.receive(new DatagramPacket(new byte[512], 512));
                        return;
                    } catch (SocketTimeoutException notYet) {
                        // not listening yet
                    }
                }
            }
            close();
            throw new IOException("dnsmasq did not answer: " + Files.readString(dir.resolve("dnsmasq.log")));
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
