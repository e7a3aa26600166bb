package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/** curl against http-file-server: keep-alive over several files, a range, and a raw {@code ..} path. */
class CurlFileServerTest {

    @TempDir
    Path tmp;
    private LoopbackServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(15, TimeUnit.SECONDS), "curl did not finish");
        assertEquals(0, p.exitValue(), new String(out, StandardCharsets.ISO_8859_1));
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    @Test
    void curlFetchesFilesRangesAndIsRefusedOutsideTheRoot() throws Exception {
        assumeTrue(new File("/usr/bin/curl").canExecute(), "curl not installed");
        Path root = Files.createDirectories(tmp.resolve("www")).toRealPath();
        Files.writeString(root.resolve("a.txt"), "0123456789abcdef");
        Files.writeString(root.resolve("b.txt"), "bee");
        Files.writeString(tmp.resolve("secret.txt"), "secret");
        server = new LoopbackServer(HttpFileServer.initializer(root, false));
        String base = server.url("");

        // Two URLs on one curl command line share one keep-alive connection.
        assertEquals("0123456789abcdefbee", curl(base + "/a.txt", base + "/b.txt"));
        assertEquals("abc", curl("-r", "10-12", base + "/a.txt"));
        assertEquals("206", curl("-r", "10-12", "-o", "/dev/null", "-w", "%{http_code}", base + "/a.txt"));
        assertEquals("404", curl("--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", base + "/../secret.txt"));
        assertEquals("404", curl("--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", base + "/%2e%2e/secret.txt"));
    }
}
