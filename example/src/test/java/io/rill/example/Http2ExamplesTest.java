package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** {@code http2-client} against {@code http2-hello}, both as a user runs them: JVMs of their own. */
class Http2ExamplesTest {

    @Test
    void theClientFetchesOnManyStreamsOfOneConnection() throws Exception {
        try (ForkedExample server = new ForkedExample("http2-hello", "--port", "0")) {
            Process client = new ProcessBuilder(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                    "--enable-native-access=ALL-UNNAMED", // as the jar's manifest says: JDK 24+ warns otherwise
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(), "http2-client",
                    "--url", "http://127.0.0.1:" + server.port() + "/any", "--streams", "300")
                    .redirectErrorStream(true).start();
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the client finished");
            assertEquals(0, client.exitValue(), out);
            assertTrue(out.startsWith(":status: 200\n"), out);
            assertTrue(out.contains("\nHello, World!\n"), out);
            assertTrue(out.contains("300 responses {200=300}, 3900 body bytes, 0 failed"), out);
        }
    }
}
