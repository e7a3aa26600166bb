package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.example.ForkedExample.Outcome;

/**
 * The client examples as a person runs them (each a JVM of its own, against example servers in
 * JVMs of their own): TLS with real trust by default and {@code --trust PEM} / {@code --insecure}
 * for the self-signed servers, failures said once and in one line, and what they send on the wire.
 */
class ClientExamplesTest {

    @Test
    void httpsTrustsTheJdkStoreByDefaultAndASelfSignedServerThroughTrustOrInsecure() throws Exception {
        Path pem;
        try (ForkedExample server = new ForkedExample("http2-hello", "--port", "0", "--tls")) {
            pem = server.certificate();
            assertTrue(pem != null && Files.isRegularFile(pem), "the server printed its certificate: " + pem);
            String url = "https://127.0.0.1:" + server.port() + "/";

            Outcome untrusted = ForkedExample.runToEnd("", "http-client", "--url", url);
            assertEquals(1, untrusted.status(), untrusted.err());
            assertOneLine(untrusted.err());
            assertTrue(untrusted.err().startsWith("http-client: ") && untrusted.err().contains("not trusted")
                    && untrusted.err().contains("--trust") && untrusted.err().contains("--insecure"), untrusted.err());
            String log = server.awaitLog("TLS with /127.0.0.1:", 10, TimeUnit.SECONDS);
            assertTrue(log.contains("http2-hello: TLS with /127.0.0.1:"), "the rejection is logged: " + log);
            assertFalse(log.contains("\tat "), "one line, no stack trace: " + log);

            Outcome trusted = ForkedExample.runToEnd("", "http-client", "--url", url, "--trust", pem.toString());
            assertEquals(0, trusted.status(), trusted.err());
            assertTrue(trusted.out().startsWith("HTTP/1.1 200 OK\n") && trusted.out().endsWith("Hello, World!"),
                    trusted.out());

            Outcome insecure = ForkedExample.runToEnd("", "http-client", "--url",
                    "https://localhost:" + server.port() + "/", "--insecure");
            assertEquals(0, insecure.status(), insecure.err());

            Outcome h2 = ForkedExample.runToEnd("", "http2-client", "--url", url, "--trust", pem.toString());
            assertEquals(0, h2.status(), h2.err());
            assertTrue(h2.out().contains(":status: 200\n") && h2.out().contains("Hello, World!"), h2.out());
            assertTrue(h2.out().contains("\nserver: Rill\n") && h2.out().contains("\ndate: "),
                    "HTTP/2 answers carry server and date: " + h2.out());

            Outcome h2untrusted = ForkedExample.runToEnd("", "http2-client", "--url", url);
            assertEquals(1, h2untrusted.status(), h2untrusted.err());
            assertOneLine(h2untrusted.err());
            assertTrue(h2untrusted.err().contains("not trusted"), h2untrusted.err());

            Outcome both = ForkedExample.runToEnd("", "http-client", "--url", url, "--trust", pem.toString(), "--insecure");
            assertEquals(2, both.status(), both.err());
        }
        assertFalse(Files.exists(pem), "the certificate is deleted with the server: " + pem);
    }

    @Test
    void curlRejectingTheCertificateIsOneLogLineNamingThePeer() throws Exception {
        try (ForkedExample server = new ForkedExample("http-hello", "--port", "0", "--tls")) {
            Process curl = new ProcessBuilder("curl", "-s", "-m", "10", "https://127.0.0.1:" + server.port() + "/")
                    .redirectErrorStream(true).start();
            curl.getInputStream().readAllBytes();
            assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
            assertEquals(60, curl.exitValue(), "curl refused the self-signed certificate");
            String log = server.awaitLog("TLS with /127.0.0.1:", 10, TimeUnit.SECONDS);
            assertTrue(log.contains("http-hello: TLS with /127.0.0.1:") && log.contains(" failed: "), log);
            assertFalse(log.contains("\tat ") || log.contains("Caused by"), "one line, no stack trace: " + log);
        }
    }

    @Test
    void websocketClientOverWssTrustsTheServersPemOverHttp1AndHttp2() throws Exception {
        try (ForkedExample server = new ForkedExample("websocket-echo", "--port", "0", "--tls")) {
            String url = "wss://127.0.0.1:" + server.port() + "/";
            for (String http2 : new String[] {"--http2=false", "--http2"}) {
                Outcome echo = ForkedExample.runToEnd("hello\n", "websocket-client", "--url", url, http2,
                        "--trust", server.certificate().toString());
                assertEquals(0, echo.status(), http2 + ": " + echo.err());
                assertEquals("hello\n", echo.out(), http2);
            }
            Outcome untrusted = ForkedExample.runToEnd("hello\n", "websocket-client", "--url", url);
            assertEquals(1, untrusted.status());
            assertOneLine(untrusted.err());
            assertTrue(untrusted.err().contains("not trusted"), untrusted.err());
        }
    }

    @Test
    void echoClientOverTlsTrustsTheServersPemOrSaysWhyNot() throws Exception {
        try (ForkedExample server = new ForkedExample("echo-server", "--port", "0", "--tls")) {
            String port = Integer.toString(server.port());
            Outcome trusted = ForkedExample.runToEnd("", "echo-client", "--port", port, "--count", "20", "--tls",
                    "--trust", server.certificate().toString());
            assertEquals(0, trusted.status(), trusted.err());
            assertTrue(trusted.out().contains("20 round-trips") && trusted.out().contains("all verified"), trusted.out());
            Outcome untrusted = ForkedExample.runToEnd("", "echo-client", "--port", port, "--count", "20", "--tls");
            assertEquals(1, untrusted.status(), untrusted.err());
            assertOneLine(untrusted.err());
            assertTrue(untrusted.err().contains("not trusted") && untrusted.err().contains("--trust"), untrusted.err());
        }
    }

    @Test
    void websocketClientSaysOnceWhyThereIsNoWebSocket() throws Exception {
        try (ForkedExample chat = new ForkedExample("websocket-chat", "--port", "0");
                ForkedExample discard = new ForkedExample("discard-server", "--port", "0")) {
            Outcome notFound = ForkedExample.runToEnd("", "websocket-client", "--url",
                    "ws://127.0.0.1:" + chat.port() + "/nope");
            assertEquals(1, notFound.status());
            assertOneLine(notFound.err());
            assertTrue(notFound.err().contains("404"), notFound.err());

            // An HTTP/1.1-only server closes on the preface; a silent one sends no SETTINGS. Neither waits out 10 s.
            for (ForkedExample server : new ForkedExample[] {chat, discard}) {
                Outcome noH2 = ForkedExample.runToEnd("", "websocket-client", "--http2", "--url",
                        "ws://127.0.0.1:" + server.port() + "/ws");
                assertEquals(1, noH2.status());
                assertOneLine(noH2.err());
                assertTrue(noH2.err().contains("no HTTP/2 connection") && noH2.err().contains("drop --http2"), noH2.err());
                assertTrue(noH2.millis() < 9_000, "said before the 10 s handshake timeout: " + noH2.millis() + " ms");
            }
        }
    }

    @Test
    void grpcEchoAnswersHttp1ReadablyAndItsHttp2AnswersCarryServerAndDate() throws Exception {
        try (ForkedExample grpc = new ForkedExample("grpc-echo", "--port", "0")) {
            String http1 = curl("-s", "-i", "-m", "10", "http://127.0.0.1:" + grpc.port() + "/");
            assertTrue(http1.startsWith("HTTP/1.1 505 HTTP Version Not Supported\r\n"), http1);
            assertTrue(http1.contains("grpc-echo speaks gRPC over HTTP/2 only"), http1);
            assertTrue(http1.contains("\r\nserver: Rill\r\n") && http1.contains("\r\ndate: "), http1);

            String h2 = curl("-s", "-i", "-m", "10", "--http2-prior-knowledge", "http://127.0.0.1:" + grpc.port() + "/");
            assertTrue(h2.startsWith("HTTP/2 405"), h2);
            assertTrue(h2.contains("\r\nserver: Rill\r\n") && h2.contains("\r\ndate: "), h2);
        }
    }

    @Test
    void httpClientSendsAGetWithoutContentLength() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> request = CompletableFuture.supplyAsync(() -> {
                try (Socket s = listener.accept()) {
                    String head = readHead(s.getInputStream());
                    s.getOutputStream().write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"
                            .getBytes(StandardCharsets.US_ASCII));
                    return head;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Outcome fetched = ForkedExample.runToEnd("", "http-client", "--url",
                    "http://127.0.0.1:" + listener.getLocalPort() + "/x");
            assertEquals(0, fetched.status(), fetched.err());
            String head = request.get(10, TimeUnit.SECONDS);
            assertTrue(head.startsWith("GET /x HTTP/1.1\r\n"), head);
            assertFalse(head.toLowerCase().contains("content-length"), "RFC 9110 section 8.6: " + head);
        }
    }

    private static void assertOneLine(String text) {
        assertEquals(1, text.strip().split("\n").length, "one line: " + text);
        assertFalse(text.contains("\tat "), text);
    }

    private static String curl(String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = "curl";
        System.arraycopy(args, 0, command, 1, args.length);
        Process p = new ProcessBuilder(command).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        return out;
    }

    private static String readHead(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
