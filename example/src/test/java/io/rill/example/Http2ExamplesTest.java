package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** {@code http2-client} against {@code http2-hello}, both as a user runs them: JVMs of their own; and HTTP/2's idle timeout. */
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

    /**
     * Issue 37: an h2c connection that opens no stream is closed at {@code --idle-timeout} with
     * GOAWAY NO_ERROR, however many PINGs it sends (it used to stay open for good).
     */
    @Test
    void anHttp2ConnectionWithoutStreamsClosesAtTheIdleTimeout() throws Exception {
        try (ForkedExample server = new ForkedExample("http2-hello", "--port", "0", "--idle-timeout", "1");
             Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(15_000);
            long start = System.nanoTime();
            ByteArrayOutputStream hello = new ByteArrayOutputStream();
            hello.writeBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            hello.writeBytes(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // SETTINGS, empty
            hello.writeBytes(new byte[] {0, 0, 0, 4, 1, 0, 0, 0, 0}); // SETTINGS ACK
            socket.getOutputStream().write(hello.toByteArray());
            byte[] received = readUntilClosed(socket.getInputStream(), socket);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(containsGoAwayNoError(received), "a GOAWAY NO_ERROR before the close");
            assertTrue(seconds < 10, "closed " + seconds + " s after the connection opened, the idle timeout is 1 s");
        }
    }

    /** Reads until the server closes, answering its PINGs as a live client would. */
    private static byte[] readUntilClosed(InputStream in, Socket socket) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int parsed = 0; // frames before this offset were looked at
        for (int n; (n = in.read(buf)) > 0; ) {
            all.write(buf, 0, n);
            byte[] bytes = all.toByteArray();
            while (parsed + 9 <= bytes.length) {
                int length = (bytes[parsed] & 0xff) << 16 | (bytes[parsed + 1] & 0xff) << 8 | bytes[parsed + 2] & 0xff;
                if (parsed + 9 + length > bytes.length) {
                    break;
                }
                if (bytes[parsed + 3] == 6 && (bytes[parsed + 4] & 1) == 0) { // a PING: ACK it
                    byte[] ack = java.util.Arrays.copyOfRange(bytes, parsed, parsed + 9 + length);
                    ack[4] = 1;
                    socket.getOutputStream().write(ack);
                }
                parsed += 9 + length;
            }
        }
        return all.toByteArray();
    }

    private static boolean containsGoAwayNoError(byte[] bytes) {
        for (int at = 0; at + 9 <= bytes.length; ) {
            int length = (bytes[at] & 0xff) << 16 | (bytes[at + 1] & 0xff) << 8 | bytes[at + 2] & 0xff;
            if (bytes[at + 3] == 7 && at + 9 + length <= bytes.length && length >= 8
                    && bytes[at + 13] == 0 && bytes[at + 14] == 0 && bytes[at + 15] == 0 && bytes[at + 16] == 0) {
                return true;
            }
            at += 9 + length;
        }
        return false;
    }
}
