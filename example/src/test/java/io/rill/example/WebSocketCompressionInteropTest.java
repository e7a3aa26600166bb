package io.rill.example;

import static io.rill.example.WebSocketInteropTest.RESOURCES;
import static io.rill.example.WebSocketInteropTest.assumeWebsockets;
import static io.rill.example.WebSocketInteropTest.exchange;
import static io.rill.example.WebSocketInteropTest.javaCommand;
import static io.rill.example.WebSocketInteropTest.reader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;

/**
 * permessage-deflate against Python's {@code websockets}: its client against {@code websocket-echo}
 * with each parameter (both no-context-takeover flags, window bits 8..15 (the client's from 9: zlib), large, incompressible
 * and fragmented messages, a message inflating past the limit; a random message of the default
 * limit, which DEFLATE lengthens), and its server, with each
 * parameter, against {@code websocket-client}.
 */
class WebSocketCompressionInteropTest {

    @Test
    void websocketsClientWithEveryParameterTalksToTheEchoServer() throws Exception {
        assumeWebsockets();
        try (ForkedExample server = new ForkedExample("websocket-echo", "--port", "0", "--max-message", "1048576")) {
            Process p = new ProcessBuilder("python3", RESOURCES.resolve("websockets_deflate_client.py").toString(),
                    Integer.toString(server.port())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the client finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("ALL OK"), out);
        }
    }

    /** Issue 31: incompressible data gets a few bytes longer compressed, and must still fit the default limit. */
    @Test
    void websocketsClientGetsARandomMessageOfTheDefaultLimitEchoedCompressed() throws Exception {
        assumeWebsockets();
        try (ForkedExample server = new ForkedExample("websocket-echo", "--port", "0")) {
            Process p = new ProcessBuilder("python3", RESOURCES.resolve("websockets_deflate_limit.py").toString(),
                    Integer.toString(server.port()), Integer.toString(WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("ALL OK"), out);
        }
    }

    @Test
    void rillClientTalksToACompressingWebsocketsServerWithEveryParameter() throws Exception {
        assumeWebsockets();
        List<List<String>> variants = new ArrayList<>();
        variants.add(List.of());
        variants.add(List.of("server_no_context_takeover=1"));
        variants.add(List.of("client_no_context_takeover=1"));
        for (int bits = 9; bits <= 15; bits++) { // zlib refuses to compress with 8: websockets answers at least 9
            variants.add(List.of("server_max_window_bits=" + bits));
        }
        for (int bits = 8; bits <= 15; bits++) {
            variants.add(List.of("client_max_window_bits=" + bits));
        }
        for (List<String> params : variants) {
            talkTo(params);
        }
    }

    private static void talkTo(List<String> params) throws Exception {
        List<String> command = new ArrayList<>(List.of("python3", RESOURCES.resolve("websockets_server.py").toString(),
                "deflate"));
        command.addAll(params);
        Process server = new ProcessBuilder(command).start();
        Process client = null;
        try {
            BufferedReader serverOut = reader(server);
            String first = serverOut.readLine();
            assertTrue(first != null && first.startsWith("PORT "), String.valueOf(first));
            client = new ProcessBuilder(javaCommand("websocket-client", "--url",
                    "ws://127.0.0.1:" + first.substring(5) + "/chat")).start();
            BufferedReader in = reader(client);
            Writer lines = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8);
            String ext = exchange(lines, in, "ext");
            assertTrue(ext.startsWith("ext: permessage-deflate"), params + ": " + ext);
            for (String p : params) {
                String name = p.substring(0, p.indexOf('='));
                assertTrue(ext.contains(name), params + ": " + ext);
            }
            for (int i = 0; i < 3; i++) {
                assertEquals("echo: hello, wörld", exchange(lines, in, "hello, wörld"), params.toString());
            }
            assertEquals("fragments", exchange(lines, in, "frag"), params.toString());
            assertEquals("[binary 300 bytes]", exchange(lines, in, "bin"), params.toString());
            String big = exchange(lines, in, "big");
            assertEquals(200_000, big.length(), params.toString());
            assertTrue(big.startsWith("a line of text that repeats a line"), params.toString());
            lines.write("bye\n");
            lines.flush();
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the client ends when the server closes");
            String err = new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(err.contains("closed by the server: 4001 see you"), params + ": " + err);
            assertEquals(0, client.exitValue(), err);
        } finally {
            server.destroy();
            if (client != null) {
                client.destroy();
            }
        }
    }
}
