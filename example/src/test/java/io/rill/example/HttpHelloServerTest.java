package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.HttpServerTimeouts;

/**
 * http-hello over a real loopback socket, raw bytes: the plaintext answer, keep-alive and
 * pipelining (POST bodies joined in between GETs), the requests that end a connection, the 1 MiB
 * echo limit, and the idle / request-head timeout.
 */
class HttpHelloServerTest {

    private static final String HELLO_HEAD = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 13\r\n"
            + "server: Rill\r\ndate: DATE\r\n";
    private static final Pattern DATE = Pattern.compile("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");

    private LoopbackServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A connection to http-hello whose idle, header and body timeouts are all {@code seconds}. */
    private Socket connect(int seconds) throws Exception {
        Duration limit = Duration.ofSeconds(seconds);
        server = new LoopbackServer(HttpHelloServer.initializer(new HttpServerTimeouts(limit, limit, limit, 500), null));
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    /** Sends {@code request} and reads until the server closes; dates become {@code DATE}. */
    private static String exchange(Socket s, String request) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
        return DATE.matcher(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).replaceAll("DATE");
    }

    /** Reads exactly {@code n} bytes. */
    private static String read(InputStream in, int n) throws IOException {
        return DATE.matcher(new String(in.readNBytes(n), StandardCharsets.ISO_8859_1)).replaceAll("DATE");
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderUntilOneEndsTheConnection() throws Exception {
        try (Socket s = connect(30)) {
            String answers = exchange(s, "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nxyz"
                    + "GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: text/x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nqq\r\n0\r\n\r\n"
                    + "HEAD /any HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    + "GET /dropped HTTP/1.1\r\nHost: a\r\n\r\n");
            assertEquals("HTTP/1.1 200 OK\r\ncontent-length: 3\r\nserver: Rill\r\ndate: DATE\r\n"
                    + "content-type: application/octet-stream\r\n\r\nxyz"
                    + HELLO_HEAD + "\r\nHello, World!"
                    + "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nserver: Rill\r\ndate: DATE\r\ncontent-type: text/x\r\n\r\nqq"
                    + HELLO_HEAD + "connection: close\r\n\r\n", answers);
        }
    }

    @Test
    void keepAliveConnectionsServeRequestAfterRequest() throws Exception {
        try (Socket s = connect(30)) {
            int length = (HELLO_HEAD + "\r\nHello, World!").replace("DATE", "Mon, 23 Nov 2026 08:00:00 GMT").length();
            for (int i = 0; i < 3; i++) {
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertEquals(HELLO_HEAD + "\r\nHello, World!", read(s.getInputStream(), length));
            }
            String tail = exchange(s, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.0\r\n\r\n");
            assertEquals(HELLO_HEAD + "connection: keep-alive\r\n\r\nHello, World!"
                    + HELLO_HEAD + "connection: close\r\n\r\nHello, World!", tail, "HTTP/1.0 keeps only when asked");
        }
    }

    @Test
    void otherMethodsAre405AndBodiesOverOneMebibyteAre413() throws Exception {
        try (Socket s = connect(30)) {
            String refused = exchange(s, "PUT / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            assertEquals("HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nserver: Rill\r\ndate: DATE\r\n"
                    + "allow: GET, HEAD, POST\r\nconnection: close\r\n\r\n", refused);
        }
        server.close();
        try (Socket s = connect(30)) {
            String tooLarge = exchange(s, "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n");
            assertTrue(tooLarge.startsWith("HTTP/1.1 413 "), tooLarge);
        }
    }

    @Test
    void aHeadThatStaysIncompleteIsAnswered408AtTheHeaderTimeout() throws Exception {
        try (Socket s = connect(1)) {
            long start = System.nanoTime();
            String answer = exchange(s, "GET / HTTP/1.1\r\nHo");
            assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout\r\n"), answer);
            assertTrue(System.nanoTime() - start < 9_000_000_000L, "closed by the 1 s timeout, not the read timeout");
        }
    }

    @Test
    void aConnectionThatSendsNothingIsClosedQuietlyAtTheIdleTimeout() throws Exception {
        try (Socket s = connect(1)) {
            long start = System.nanoTime();
            assertEquals("", exchange(s, ""), "closed without an answer");
            assertTrue(System.nanoTime() - start < 9_000_000_000L, "closed by the 1 s timeout, not the read timeout");
        }
    }
}
