package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An example that cannot start says why in one line and exits 1, as a user sees it: a fresh JVM. */
class StartupFailureTest {

    @ParameterizedTest
    @ValueSource(strings = {"nio", "auto"})
    void aBusyPortIsOneLineNamingTheAddressAndTheCause(String transport) throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String port = String.valueOf(busy.getLocalPort());
            Outcome plain = fork("http-hello", "--port", port, "--transport", transport);
            assertEquals(1, plain.status, plain.err);
            String[] lines = plain.err.split("\n");
            assertEquals(1, lines.length, plain.err);
            assertTrue(lines[0].startsWith("http-hello: cannot start: cannot listen on 127.0.0.1:" + port + ": "), lines[0]);
            assertTrue(lines[0].contains("Address already in use"), lines[0]);
            assertTrue(lines[0].endsWith("(--debug prints the stack trace)"), lines[0]);

            Outcome debug = fork("echo-server", "--port", port, "--transport", transport, "--debug");
            assertEquals(1, debug.status, debug.err);
            assertTrue(debug.err.startsWith("echo-server: cannot start: cannot listen on 127.0.0.1:" + port), debug.err);
            assertTrue(debug.err.contains("\tat io.rill.example.ServerRunner.run"), debug.err);
        }
    }

    @Test
    void noArgumentsListsTheExamplesAndExitsTwo() throws Exception {
        Outcome none = fork();
        assertEquals(2, none.status, none.err);
        assertTrue(none.err.startsWith("Usage: java -jar rill-example.jar <example> [options]"), none.err);
        assertTrue(none.err.contains("  http-hello "), "the examples are listed: " + none.err);
    }

    @Test
    void aMissingDirectoryToServeIsOneLineAndExitsTwo() throws Exception {
        Outcome missing = fork("http-file-server", "--port", "0", "--dir", "/nonexistent");
        assertEquals(2, missing.status, missing.err);
        assertEquals("http-file-server: --dir /nonexistent: no such directory (see http-file-server --help)\n",
                missing.err);
    }

    private record Outcome(int status, String err) {
    }

    private static Outcome fork(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "exited");
        return new Outcome(p.exitValue(), err);
    }
}
