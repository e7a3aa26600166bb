package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Rill's WebSocket against Python's {@code websockets} (RFC 6455, and a different author's reading
 * of it) and curl: {@code websockets} as a client of {@code websocket-echo} over ws and wss (text,
 * UTF-8, binary, fragmented, 1 MiB, ping, close codes, 1009 beyond the limit), as a server for
 * {@code websocket-client} (echo, fragments, binary, a server ping, the server's close); curl for
 * the handshake bytes. CI installs websockets ({@code .ci/run}); elsewhere the Python tests are
 * skipped when it is missing.
 */
class WebSocketInteropTest {

    static final Path RESOURCES = Path.of("src", "test", "resources");

    @Test
    void websocketsClientTalksToTheEchoServer() throws Exception {
        runPythonClient();
    }

    @Test
    void websocketsClientTalksToTheEchoServerOverTls() throws Exception {
        runPythonClient("--tls");
    }

    private static void runPythonClient(String... extra) throws Exception {
        assumeWebsockets();
        List<String> args = new ArrayList<>(List.of("websocket-echo", "--port", "0", "--max-message", "1048576"));
        args.addAll(List.of(extra));
        try (ForkedExample server = new ForkedExample(args.toArray(String[]::new))) {
            List<String> command = new ArrayList<>(List.of("python3", RESOURCES.resolve("websockets_client.py").toString(),
                    Integer.toString(server.port())));
            if (extra.length > 0) {
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
    void rillClientTalksToAWebsocketsServer() throws Exception {
        assumeWebsockets();
        Process server = new ProcessBuilder("python3", RESOURCES.resolve("websockets_server.py").toString()).start();
        Process client = null;
        try {
            BufferedReader serverOut = reader(server);
            String first = serverOut.readLine();
            assertTrue(first != null && first.startsWith("PORT "), String.valueOf(first));
            client = new ProcessBuilder(javaCommand("websocket-client", "--url",
                    "ws://127.0.0.1:" + first.substring(5) + "/chat")).start();
            BufferedReader in = reader(client);
            Writer lines = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8);
            assertEquals("echo: hello, wörld", exchange(lines, in, "hello, wörld"));
            assertEquals("fragments", exchange(lines, in, "frag"), "a message in three fragments, joined");
            assertEquals("[binary 300 bytes]", exchange(lines, in, "bin"));
            assertEquals("pong came back", exchange(lines, in, "ping"), "Rill answered the server's ping");
            assertEquals(200_000, exchange(lines, in, "big").length(), "two 100 KB frames: within the 1 MiB it promises");
            lines.write("bye\n");
            lines.flush();
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the client ends when the server closes");
            String err = new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(err.contains("closed by the server: 4001 see you"), err);
            assertEquals(0, client.exitValue(), err);
        } finally {
            server.destroy();
            if (client != null) {
                client.destroy();
            }
        }
    }

    @Test
    void curlSeesTheHandshakeBytes() throws Exception {
        assumeTrue(new File("/usr/bin/curl").canExecute(), "curl not installed");
        try (ForkedExample server = new ForkedExample("websocket-echo", "--port", "0")) {
            Process curl = new ProcessBuilder("curl", "--http1.1", "-s", "-i", "-N", "--max-time", "20",
                    "-H", "Upgrade: websocket", "-H", "Connection: Upgrade",
                    "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "-H", "Sec-WebSocket-Version: 13",
                    "http://127.0.0.1:" + server.port() + "/").start();
            try {
                BufferedReader in = reader(curl);
                StringBuilder head = new StringBuilder();
                for (String line; (line = in.readLine()) != null && !line.isBlank(); ) {
                    head.append(line.strip()).append('\n');
                }
                String text = head.toString().toLowerCase();
                assertTrue(text.startsWith("http/1.1 101 switching protocols\n"), text);
                assertTrue(text.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo=\n"), text);
                assertTrue(text.contains("upgrade: websocket\n") && text.contains("connection: upgrade\n"), text);
            } finally {
                curl.destroy();
            }
            Process refused = new ProcessBuilder("curl", "--http1.1", "-s", "-i", "--max-time", "20",
                    "-H", "Upgrade: websocket", "-H", "Connection: Upgrade",
                    "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "-H", "Sec-WebSocket-Version: 8",
                    "http://127.0.0.1:" + server.port() + "/").start();
            String answer = new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8).toLowerCase();
            assertTrue(refused.waitFor(30, TimeUnit.SECONDS));
            assertTrue(answer.startsWith("http/1.1 426 upgrade required"), answer);
            assertTrue(answer.contains("sec-websocket-version: 13"), answer);
        }
    }

    /** Sends one line and returns the next line the client prints. */
    static String exchange(Writer out, BufferedReader in, String line) throws Exception {
        out.write(line + "\n");
        out.flush();
        return in.readLine();
    }

    static BufferedReader reader(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    static List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    static void assumeWebsockets() throws Exception {
        boolean present;
        try {
            Process p = new ProcessBuilder("python3", "-c", "import websockets").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            present = false;
        }
        assertTrue(present || !"true".equals(System.getenv("CI")), "CI must install websockets (.ci/run: pip install websockets)");
        assumeTrue(present, "python3 with websockets is not installed");
    }
}
