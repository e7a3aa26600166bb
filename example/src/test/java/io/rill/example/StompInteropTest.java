package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * and gets them back as MESSAGE frames, then disconnects with a receipt. Skips outside CI when
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
        try (ForkedExample broker = new ForkedExample("stomp-broker", "--port", "0", "--transport", transport)) {
            Process client = new ProcessBuilder("python3", Path.of("src", "test", "resources", "stomp_client.py").toString(),
                    String.valueOf(broker.port())).redirectErrorStream(true).start();
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(60, TimeUnit.SECONDS), out);
            assertEquals(0, client.exitValue(), out);
            assertTrue(out.contains("MESSAGE sub-1 /queue/test 'a:b\\nc' None 'hello'"), out);
            assertTrue(out.contains("MESSAGE sub-1 /queue/test None None 'line one\\nline two'"), out);
            assertTrue(out.contains("MESSAGE sub-1 /queue/test None text/plain 'grüße'"), out);
            assertTrue(out.contains("disconnected"), out);
        }
    }
}
