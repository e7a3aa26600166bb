package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * WebSocket over HTTP/2 (RFC 8441) through the examples: Python's {@code h2} package, another
 * author's HTTP/2, drives a raw extended CONNECT with hand-made masked frames against
 * {@code websocket-echo} over h2c and over TLS with ALPN h2; Rill's {@code websocket-client --http2}
 * talks to the same server, and is refused with a clear reason by {@code http2-hello}, which does
 * not advertise SETTINGS_ENABLE_CONNECT_PROTOCOL; headless Chromium, which puts a WebSocket on an
 * HTTP/2 connection whose server allows it, echoes through {@code websocket-echo --tls} with a
 * handshake of status 200. CI installs h2 and chromium ({@code .ci/run}); elsewhere the tests that
 * need them are skipped when they are missing.
 */
class WebSocketHttp2InteropTest {

    private static final Path RESOURCES = Path.of("src", "test", "resources");

    @Test
    void h2ClientSpeaksWebSocketOverAStreamOfTheEchoServer() throws Exception {
        runPythonClient(false);
    }

    @Test
    void h2ClientSpeaksWebSocketOverAStreamOfTheEchoServerWithTlsAndAlpn() throws Exception {
        runPythonClient(true);
    }

    private static void runPythonClient(boolean tls) throws Exception {
        assumeH2();
        List<String> args = new ArrayList<>(List.of("websocket-echo", "--port", "0", "--max-message", "1048576"));
        if (tls) {
            args.add("--tls");
        }
        try (ForkedExample server = new ForkedExample(args.toArray(String[]::new))) {
            List<String> command = new ArrayList<>(List.of("python3", RESOURCES.resolve("ws_h2_client.py").toString(),
                    Integer.toString(server.port())));
            if (tls) {
                command.add("tls");
            }
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the client finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("ALL OK"), out);
        }
    }

    @Test
    void chromiumOpensItsWebSocketOnTheHttp2ConnectionOfThePage() throws Exception {
        boolean chromium = new File("/usr/bin/chromium").canExecute();
        boolean websockets = new ProcessBuilder("python3", "-c", "import websockets").start().waitFor() == 0;
        assertTrue(!"true".equals(System.getenv("CI")) || chromium && websockets,
                "CI must install chromium and websockets (.ci/run)");
        assumeTrue(chromium && websockets, "chromium or python3 websockets is not installed");
        try (ForkedExample server = new ForkedExample("websocket-echo", "--port", "0", "--tls")) {
            Process p = new ProcessBuilder("python3", RESOURCES.resolve("ws_h2_browser.py").toString(),
                    Integer.toString(server.port())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the browser script finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("ALL OK"), out);
        }
    }

    @Test
    void rillClientSpeaksWebSocketOverHttp2ToTheEchoServer() throws Exception {
        try (ForkedExample server = new ForkedExample("websocket-echo", "--port", "0")) {
            Process client = new ProcessBuilder(javaCommand("websocket-client", "--http2", "--url",
                    "ws://127.0.0.1:" + server.port() + "/")).start();
            client.getOutputStream().write("hello over h2\nwörld\n".getBytes(StandardCharsets.UTF_8));
            client.getOutputStream().close(); // end of input: the client closes with 1000
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the client ends after the close handshake");
            String err = new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals("hello over h2\nwörld\n", out, err);
            assertTrue(err.contains("closed by the server: 1000"), err);
            assertEquals(0, client.exitValue(), err);
        }
    }

    @Test
    void rillClientIsToldWhenTheServerDoesNotAllowExtendedConnect() throws Exception {
        try (ForkedExample server = new ForkedExample("http2-hello", "--port", "0")) {
            Process client = new ProcessBuilder(javaCommand("websocket-client", "--http2", "--url",
                    "ws://127.0.0.1:" + server.port() + "/")).start();
            client.getOutputStream().close();
            String err = new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(30, TimeUnit.SECONDS));
            assertEquals(1, client.exitValue(), err);
            assertTrue(err.contains("did not send SETTINGS_ENABLE_CONNECT_PROTOCOL = 1"), err);
        }
    }

    private static List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private static void assumeH2() throws Exception {
        boolean present;
        try {
            Process p = new ProcessBuilder("python3", "-c", "import h2.connection").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            present = false;
        }
        assertTrue(present || !"true".equals(System.getenv("CI")), "CI must install h2 (.ci/run: pip install h2)");
        assumeTrue(present, "python3 with h2 is not installed");
    }
}
