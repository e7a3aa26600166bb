package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.channel.local.LocalAddress;

/**
 * SECURITY-CASES §2.7: {@code EMFILE} on accept must not busy-loop. This runs out of file
 * descriptors for real, in a JVM of its own ({@link AcceptExhaustionScenario}): it lowers that
 * process's soft {@code RLIMIT_NOFILE} with util-linux {@code prlimit}, fills what is left with
 * {@code /dev/null}, and lets the server accept. The accept fails with "Too many open files", the
 * server reports it once, its loop stays idle while the connections wait, and once descriptors are
 * free again the waiting connections are accepted and served. Skipped where there are no
 * descriptors (local transport) or no {@code prlimit}.
 */
abstract class SocketAcceptExhaustionTests extends AbstractSocketTest {

    /** The {@link SocketTestSuite} subclass whose transport the scenario uses. */
    protected abstract Class<? extends SocketTestSuite> suiteClass();

    @Test
    void l09_acceptFailingWithTooManyOpenFilesPausesWithoutSpinningAndRecovers() throws Exception {
        assumeTrue(!(transport.bindAddress().get() instanceof LocalAddress), transport + " uses no descriptors");
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")) && Files.isExecutable(Path.of("/usr/bin/prlimit")),
                "needs /proc and util-linux prlimit");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Drill.leakDetection.level=DISABLED", AcceptExhaustionScenario.class.getName(), suiteClass().getName())
                .redirectErrorStream(true).start();
        child.getOutputStream().close();
        boolean ended = child.waitFor(50, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        child.getInputStream().close();
        assertTrue(ended, "the scenario did not finish in time:\n" + output);
        assertEquals(0, child.exitValue(), "the scenario failed:\n" + output);
        assertTrue(output.contains("PASS"), output);
    }
}
