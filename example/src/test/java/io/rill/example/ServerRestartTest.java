package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every example server restarts on the port it just served, as a service manager restarts it: a
 * JVM of its own on the default transport (epoll where it loads), one exchange on a connection
 * the server closes first (so the server's side waits in TIME_WAIT on the port), SIGTERM, and a
 * new JVM on the same port must listen. Without {@code SO_REUSEADDR} on the listening socket the
 * second bind fails with "Address already in use".
 */
class ServerRestartTest {

    private static final String GET_CLOSE = "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

    /**
     * @param example the server
     * @param request what the client sends ("GET path" for an HTTP request that asks for the close)
     * @param serverCloses true if the server closes after answering; false: it keeps the
     *                     connection, and its stop closes it (from the server's side, too)
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "http-hello, GET /, true",
        "http2-hello, GET /, true",
        "grpc-echo, GET /, true",
        "http-file-server, GET /, true",
        "http-echo, GET /, true",
        "http-blocking, GET /fast, true",
        "websocket-echo, GET /, true",
        "websocket-chat, GET /, true",
        "port-unification, GET /, true",
        "line-chat-server, /quit, true",
        "echo-server, ping, false",
        "discard-server, '', false",
        "socks-proxy, '', false",
        "redis-server, QUIT, true",
        "mqtt-broker, '', false",
        "stomp-broker, '', false",
    })
    void restartsOnThePortItJustServed(String example, String request, boolean serverCloses) throws Exception {
        int port;
        try (ForkedExample first = new ForkedExample(example, "--port", "0")) {
            port = first.port();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                s.setSoTimeout(10_000);
                // Nothing for discard-server: bytes it had not read yet when stopped would make its close a reset.
                String sent = request.startsWith("GET ") ? String.format(GET_CLOSE, request.substring(4))
                        : request.isEmpty() ? "" : request + "\r\n";
                s.getOutputStream().write(sent.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                if (serverCloses) {
                    assertFalse(readToEnd(s.getInputStream()).isEmpty(), example + " answered");
                } else {
                    if (example.equals("echo-server")) {
                        assertEquals('p', s.getInputStream().read(), "the echo came: the connection is accepted");
                    }
                    first.close(); // SIGTERM: the server closes its connections on the way out
                    readToEnd(s.getInputStream());
                }
            } // the client's close follows the server's: the server's side is in TIME_WAIT
        }
        try (ForkedExample second = new ForkedExample(example, "--port", Integer.toString(port))) {
            assertEquals(port, second.port(), example + " listens again on " + port);
        }
    }

    @Test
    void everyServerOfTheJarIsRestarted() throws Exception {
        Set<String> covered = Set.of("http-hello", "http2-hello", "grpc-echo", "http-file-server", "http-echo",
                "http-blocking", "websocket-echo", "websocket-chat", "port-unification", "line-chat-server",
                "echo-server", "discard-server", "socks-proxy", "redis-server", "mqtt-broker", "stomp-broker");
        Set<String> clients = Set.of("http2-client", "http-client", "websocket-client", "echo-client", "udp-echo",
                "scheduler-demo", "redis-client", "mqtt-client");
        Set<String> untested = Main.EXAMPLES.stream().map(Example::name)
                .filter(n -> !covered.contains(n) && !clients.contains(n)).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(untested.isEmpty(), "a TCP server example without a restart case: " + untested);
    }

    private static String readToEnd(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
}
