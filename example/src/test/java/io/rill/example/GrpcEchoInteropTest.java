package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Python's grpcio, the reference gRPC implementation's core, calls {@code grpc-echo} (run as a
 * user runs it, in a JVM of its own) with raw bytes: unary calls up to 1 MiB, a bidirectional
 * stream of 200 messages, 50 concurrent calls, an unknown method, an oversized message and a
 * deadline, then one more call on the same connection. CI installs grpcio ({@code .ci/run}).
 */
class GrpcEchoInteropTest {

    @Test
    void grpcioCallsEveryMethodAndGetsTheRightStatuses() throws Exception {
        assumeGrpcio();
        Path script = Path.of("src", "test", "resources", "grpc_echo_client.py");
        try (ForkedExample server = new ForkedExample("grpc-echo", "--port", "0")) {
            Process p = new ProcessBuilder("python3", script.toString(), "127.0.0.1:" + server.port())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the client finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("ALL OK"), out);
        }
    }

    /** The same calls over TLS: grpc-echo --tls (h2 by ALPN), grpcio trusting the PEM the server printed. */
    @Test
    void grpcioCallsOverTlsTrustingTheServersCertificate() throws Exception {
        assumeGrpcio();
        Path script = Path.of("src", "test", "resources", "grpc_echo_client.py");
        try (ForkedExample server = new ForkedExample("grpc-echo", "--port", "0", "--tls")) {
            Process p = new ProcessBuilder("python3", script.toString(), "127.0.0.1:" + server.port(),
                    "--tls", server.certificate().toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the client finished");
            assertEquals(0, p.exitValue(), out + "\nserver log:\n" + server.stderr());
            assertTrue(out.contains("ALL OK"), out);
        }
    }

    private static void assumeGrpcio() throws Exception {
        boolean present;
        try {
            Process p = new ProcessBuilder("python3", "-c", "import grpc").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            present = false;
        }
        assertTrue(present || !"true".equals(System.getenv("CI")), "CI must install grpcio (.ci/run)");
        assumeTrue(present, "python3 with grpcio is not installed");
    }
}
