package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a real client (curl, Python) against a test server, bounded in time, and returns what it
 * printed. A test whose tool is not installed is skipped, never failed: {@code .ci/run} installs them.
 */
final class ExternalPeer {

    private ExternalPeer() {
    }

    /** Skips the test unless {@code command} is on the PATH. */
    static void require(String command) {
        assumeTrue(onPath(command), command + " is not installed");
    }

    /** Skips the test unless Python can import {@code module}. */
    static void requirePythonModule(String module) throws Exception {
        require("python3");
        Result r = run(List.of("python3", "-c", "import " + module), null);
        assumeTrue(r.exitCode == 0, "python3 module " + module + " is not installed");
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code command} with {@code stdin} (or none), for at most 30 s; stderr is merged into the output. */
    static Result run(List<String> command, byte[] stdin) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin);
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes(); // ends when the process closes its output
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        assertTrue(done, command + " did not finish in 30 s");
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /**
     * Reads {@code process}'s output until a line holds {@code marker} followed by a port number
     * (e.g. Python's "Serving HTTP on 127.0.0.1 port 43567"); fails if it exits first.
     */
    static int awaitPort(Process process, String marker) throws IOException {
        java.io.BufferedReader out = new java.io.BufferedReader(
                new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = out.readLine()) != null; ) {
            seen.append(line).append('\n');
            int at = line.indexOf(marker);
            if (at >= 0) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d+").matcher(line.substring(at + marker.length()));
                if (m.find()) {
                    return Integer.parseInt(m.group());
                }
            }
        }
        throw new AssertionError("the process exited without announcing a port:\n" + seen);
    }

    record Result(int exitCode, String output) {
    }
}
