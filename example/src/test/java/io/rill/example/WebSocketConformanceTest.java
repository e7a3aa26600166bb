package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * {@code ws_conformance.py}, a raw-socket run of 146 cases grouped like Autobahn|Testsuite's
 * sections 1-7, 9, 12 and 13 (framing, pings, reserved bits, opcodes, fragmentation, UTF-8, close
 * handling, limits, permessage-deflate with its parameters and errors), against
 * {@code websocket-echo} run as a user runs it. Needs only python3.
 */
class WebSocketConformanceTest {

    @Test
    void everyCaseOfTheRawSocketRunPasses() throws Exception {
        try (ForkedExample server = new ForkedExample("websocket-echo", "--port", "0")) {
            Process p = new ProcessBuilder("python3", Path.of("src", "test", "resources", "ws_conformance.py").toString(),
                    Integer.toString(server.port())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the run finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("148 cases, 0 failed"), out);
        }
    }
}
