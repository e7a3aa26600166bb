package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs the {@code openssl} command line tool (Debian package openssl, installed by .ci/run).
 * Tests that need it are skipped only when the binary is missing from PATH.
 */
final class OpenSslTool {

    private OpenSslTool() {
    }

    static String path() {
        return find("openssl");
    }

    /** The absolute path of {@code name} on PATH, or null. */
    static String find(String name) {
        String pathVar = System.getenv("PATH");
        if (pathVar == null) {
            return null;
        }
        for (String d : pathVar.split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        return null;
    }

    static void assumeAvailable() {
        Assumptions.assumeTrue(path() != null, "openssl is not installed");
    }

    /** Runs openssl with {@code args} in {@code dir}; fails the test unless it exits 0 within 60 s. */
    static String run(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(path());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("openssl " + String.join(" ", args) + " did not finish");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "openssl " + String.join(" ", args) + ":\n" + text);
        return text;
    }
}
