package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * h2spec, the HTTP/2 conformance suite (RFC 9113 and RFC 7541), against the {@code http2-hello}
 * example as a user runs it (a JVM of its own), on its cleartext port (where prior knowledge,
 * the h2c upgrade and HTTP/1.1 share the port) and with {@code --tls} (h2 by ALPN): every case,
 * strict mode too, nothing excluded.
 * CI installs h2spec ({@code .ci/run}); elsewhere the test is skipped when h2spec is missing.
 */
class Http2ConformanceTest {

    @Test
    void h2specPassesEveryCaseOverCleartext() throws Exception {
        runAgainst(false);
    }

    @Test
    void h2specPassesEveryCaseOverTlsWithAlpn() throws Exception {
        runAgainst(true);
    }

    private static void runAgainst(boolean tls) throws Exception {
        Path h2spec = h2spec();
        try (ForkedExample server = tls ? new ForkedExample("http2-hello", "--port", "0", "--tls")
                : new ForkedExample("http2-hello", "--port", "0")) {
            try {
                assertEveryCasePasses(h2spec, server.port(), tls, false);
                assertEveryCasePasses(h2spec, server.port(), tls, true);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nserver log:\n" + server.stderr(), e);
            }
        }
    }

    private static void assertEveryCasePasses(Path h2spec, int port, boolean tls, boolean strict) throws Exception {
        List<String> command = new ArrayList<>(List.of(h2spec.toString(), "-h", "127.0.0.1", "-p", String.valueOf(port),
                "-o", "5"));
        if (tls) {
            command.addAll(List.of("-t", "-k")); // TLS, the certificate is self-signed
        }
        if (strict) {
            command.add("-S");
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "h2spec finished");
        String summary = out.lines().filter(l -> l.contains(" tests, ")).findFirst().orElse("no summary");
        assertEquals(0, p.exitValue(), summary + "\n" + failures(out));
        assertTrue(summary.matches("\\d+ tests, \\d+ passed, 0 skipped, 0 failed"), summary);
        int tests = Integer.parseInt(summary.substring(0, summary.indexOf(' ')));
        assertTrue(tests >= 145, "h2spec ran " + tests + " cases");
    }

    private static String failures(String out) {
        StringBuilder sb = new StringBuilder();
        out.lines().filter(l -> l.contains("×") || l.contains("Expected") || l.contains("Actual")).forEach(l -> sb.append(l).append('\n'));
        return sb.toString();
    }

    /** h2spec on the PATH or where {@code go install} puts it; skipped if absent, but required in CI. */
    private static Path h2spec() {
        List<Path> candidates = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            candidates.add(Path.of(dir, "h2spec"));
        }
        String gopath = System.getenv().getOrDefault("GOPATH", System.getProperty("user.home") + "/go");
        candidates.add(Path.of(gopath, "bin", "h2spec"));
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        boolean ci = "true".equals(System.getenv("CI"));
        assertTrue(!ci, "CI must install h2spec (.ci/run: go install github.com/summerwind/h2spec/cmd/h2spec)");
        assumeTrue(false, "h2spec is not installed");
        return null;
    }
}
