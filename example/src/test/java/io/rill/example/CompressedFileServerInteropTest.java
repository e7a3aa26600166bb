package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-file-server --compress} in a JVM of its own, as {@code java -jar} runs it, against
 * curl {@code --compressed} (Debian's curl decodes br and zstd) and against Python's
 * {@code brotli} and {@code zstandard} decoding the bytes it sent: each coding chosen by
 * {@code Accept-Encoding}, each body decoded to the file byte for byte; a range and an image are
 * sent as they are. One server, a handful of requests.
 */
class CompressedFileServerInteropTest {

    @TempDir
    Path tmp;

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), cmd.get(0) + " did not finish");
        assertEquals(0, p.exitValue(), new String(out, StandardCharsets.UTF_8));
        return new String(out, StandardCharsets.UTF_8);
    }

    private static String curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** Whether curl can decode br and zstd: {@code curl -V} lists them among its features. */
    private static boolean curlDecodesBrAndZstd() throws InterruptedException {
        try {
            String v = run(List.of("curl", "-V")).toLowerCase();
            return v.contains("brotli") && v.contains("zstd");
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void curlAndPythonGetEachCodingByAcceptEncodingAndDecodeTheFileExactly() throws Exception {
        assumeTrue(curlDecodesBrAndZstd(), "curl with brotli and zstd not installed");
        Path root = Files.createDirectories(tmp.resolve("www")).toRealPath();
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 300_000; i++) {
            text.append("{\"line\":").append(i).append(",\"text\":\"the quick brown fox jumps over the lazy dog\"}\n");
        }
        byte[] big = text.toString().getBytes(StandardCharsets.US_ASCII); // several 8 KiB chunks: a streamed body
        Files.write(root.resolve("data.json"), big);
        Files.write(root.resolve("small.txt"), "just a few bytes\n".getBytes(StandardCharsets.US_ASCII));
        Files.write(root.resolve("pic.png"), java.util.Arrays.copyOf(big, 5000));
        Path got = tmp.resolve("got");
        try (ForkedExample server = new ForkedExample("http-file-server", "--port", "0", "--dir", root.toString(),
                "--compress")) {
            String url = "http://127.0.0.1:" + server.port() + "/";
            String header = "%header{content-encoding}";

            // curl --compressed offers "deflate, gzip, br, zstd": the server's preference picks zstd.
            assertEquals("zstd", curl("--compressed", "-o", got.toString(), "-w", header, url + "data.json"));
            assertArrayEquals(big, Files.readAllBytes(got));
            for (String coding : new String[] {"br", "gzip"}) {
                assertEquals(coding, curl("--compressed", "-H", "Accept-Encoding: " + coding, "-o", got.toString(),
                        "-w", header, url + "data.json"), coding);
                assertArrayEquals(big, Files.readAllBytes(got), coding);
            }
            // Left alone: a body under 1 KiB, an image, a range (its bytes are of the identity body).
            assertEquals("", curl("--compressed", "-o", got.toString(), "-w", header, url + "small.txt"));
            assertEquals("", curl("--compressed", "-o", got.toString(), "-w", header, url + "pic.png"));
            assertEquals("", curl("--compressed", "-r", "100-199", "-o", got.toString(), "-w", header, url + "data.json"));
            assertArrayEquals(java.util.Arrays.copyOfRange(big, 100, 200), Files.readAllBytes(got));

            String py = run(List.of("python3", WebSocketInteropTest.RESOURCES.resolve("compressed_file_client.py").toString(),
                    Integer.toString(server.port()), root.toString(), "data.json"));
            assertTrue(py.contains("ALL OK"), py + "\nserver log:\n" + server.stderr());

            // Rill's own client asks for the codings it decodes, zstd first, and prints the file as it was.
            ForkedExample.Outcome fetched = ForkedExample.runToEnd("", "http-client", "--url", url + "data.json");
            assertEquals(0, fetched.status(), fetched.err());
            assertTrue(fetched.out().startsWith("HTTP/1.1 200 OK\n"), fetched.out().substring(0, 200));
            assertTrue(fetched.out().endsWith(text.toString()), "the body decoded whole");
        }
    }
}
