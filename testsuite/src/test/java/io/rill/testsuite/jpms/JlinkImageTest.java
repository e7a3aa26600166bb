package io.rill.testsuite.jpms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.util.PlatformInfo;

/**
 * {@code scripts/jlink.sh} links Rill's modules, tcnative's and the module-path program into a
 * run-time image and runs the program from it: every round trip passes from the image, where the
 * BoringSSL library is found in a linked module that nothing requires.
 */
class JlinkImageTest {

    @TempDir
    Path dir;

    @Test
    void imageRunsEveryRoundTrip() throws Exception {
        assumeTrue(PlatformInfo.classifier().equals("linux-x86_64"), "needs linux-x86_64");
        Path output = dir.resolve("output.txt");
        ProcessBuilder script = new ProcessBuilder("bash", "scripts/jlink.sh", dir.resolve("image").toString())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        // The JDK this test runs on, and the modules this build just made rather than older jars in target/.
        script.environment().put("JAVA_HOME", System.getProperty("java.home"));
        script.environment().put("RILL_MODULE_PATH", ModulePathProgram.fromTestClassPath().modulePath());
        Process process = script.start();
        process.getOutputStream().close();
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "jlink.sh did not finish within 5 minutes");
        String text = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        assertTrue(text.contains("all round trips passed"), text);
        assertTrue(text.contains("image size: "), text);
        assertFalse(text.toLowerCase(Locale.ROOT).contains("warning"), text);
    }
}
