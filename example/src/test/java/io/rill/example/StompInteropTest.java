package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.epoll.Epoll;

/**
 * Python's stomp.py against the {@code stomp-broker} example, over NIO and epoll: it subscribes,
 * sends three messages (a header that needs escaping, a multi-line body, UTF-8 with a content type)
 * and gets them back as MESSAGE frames, exchanges heart-beats at the negotiated interval, then
 * disconnects with a receipt. Over raw sockets on the same broker: a client silent past twice the
 * interval it promised is closed with an ERROR frame, and a malformed heart-beat header is refused. Skips outside CI when
 * stomp.py is missing; {@code .ci/run} installs it, and in CI a missing one fails.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StompInteropTest {

    private static boolean stompPyInstalled() throws Exception {
        Process p = new ProcessBuilder("python3", "-c", "import stomp").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void stompPySubscribesSendsAndReceivesThroughTheBroker(String transport) throws Exception {
        boolean present = stompPyInstalled();
        assertTrue(present || !"true".equals(System.getenv("CI")), "CI must install stomp.py (.ci/run)");
        assumeTrue(present, "stomp.py is not installed (pip install stomp.py)");
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        try (ForkedExample broker = new ForkedExample("stomp-broker", "--port", "0", "--transport", transport, "--heart-beat-ms", "200")) {
            Process client = new ProcessBuilder("python3", Path.of("src", "test", "resources", "stomp_client.py").toString(),
                    String.valueOf(broker.port()), "200").redirectErrorStream(true).start();
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(60, TimeUnit.SECONDS), out);
            assertEquals(0, client.exitValue(), out);
            assertTrue(out.contains("MESSAGE sub-1 /queue/test 'a:b\\nc' None 'hello'"), out);
            assertTrue(out.contains("MESSAGE sub-1 /queue/test None None 'line one\\nline two'"), out);
            assertTrue(out.contains("MESSAGE sub-1 /queue/test None text/plain 'grüße'"), out);
            assertTrue(out.contains("CONNECTED heart-beat 200,200"), out);
            assertTrue(out.contains("heart-beats arrived"), out);
            assertTrue(out.contains("disconnected"), out);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void stomp_05_aClientSilentPastItsHeartBeatIsClosedAndAMalformedHeaderRefused(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        try (ForkedExample broker = new ForkedExample("stomp-broker", "--port", "0", "--transport", transport, "--heart-beat-ms", "200")) {
            // Promises a heart-beat at least every max(100, 200) ms, then sends nothing: closed after about 400 ms.
            long start = System.nanoTime();
            String silent = rawSession(broker.port(), "CONNECT\naccept-version:1.2\nheart-beat:100,0\n\n\0");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(silent.startsWith("CONNECTED\n") && silent.contains("heart-beat:200,200"), silent);
            assertTrue(silent.contains("ERROR\n") && silent.contains("message:heart-beat missed"), silent);
            assertTrue(millis >= 350 && millis < 10_000, "closed after " + millis + " ms, expected about 400");

            String malformed = rawSession(broker.port(), "CONNECT\naccept-version:1.2\nheart-beat:fast\n\n\0");
            assertTrue(malformed.startsWith("ERROR\n") && malformed.contains("heart-beat header 'fast'"), malformed);
        }
    }

    /** Sends {@code frames} and returns everything the broker sends until it closes the connection. */
    private static String rawSession(int port, String frames) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(frames.getBytes(StandardCharsets.UTF_8));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
