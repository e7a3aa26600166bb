package io.rill.example;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An example server in a JVM of its own, as {@code java -jar} runs it (same classes, same
 * {@code main}), so its memory and CPU time can be read from {@code /proc} without the test's own.
 * Linux only; close() kills it.
 */
final class ForkedExample implements AutoCloseable {

    /** What {@code ExampleTls} prints before the certificate's path. */
    private static final String CERTIFICATE_LINE = "TLS with a self-signed certificate: ";

    private final Process process;
    private final int port;
    /** Everything the server wrote to stderr so far; guarded by itself, notified per line. */
    private final StringBuilder stderr = new StringBuilder();
    private final CompletableFuture<Void> stderrDrained;
    /** The self-signed certificate a {@code --tls} server printed before listening; null if none. */
    private final Path certificate;

    ForkedExample(String... args) throws IOException {
        this(Path.of(System.getProperty("java.home"), "bin", "java"), args);
    }

    /** Runs the example with the {@code java} launcher at {@code javaExecutable} (another JDK than the test's). */
    static ForkedExample withJava(Path javaExecutable, String... args) throws IOException {
        return new ForkedExample(javaExecutable, args);
    }

    private ForkedExample(Path javaExecutable, String[] args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                javaExecutable.toString(), "-Xmx1g", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        process = new ProcessBuilder(command).start();
        stderrDrained = TestThreads.run("forked-stderr", () -> {
            BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
            try {
                for (String line; (line = err.readLine()) != null; ) {
                    synchronized (stderr) {
                        stderr.append(line).append('\n');
                        stderr.notifyAll();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        int found = -1;
        Path cert = null;
        for (String line; found < 0 && (line = out.readLine()) != null; ) {
            if (line.startsWith("Listening on ")) {
                found = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
            } else if (line.startsWith(CERTIFICATE_LINE)) {
                cert = Path.of(line.substring(CERTIFICATE_LINE.length()));
            }
        }
        certificate = cert;
        if (found < 0) {
            close();
            throw new IOException("the server never listened: " + stderr());
        }
        port = found;
        TestThreads.run("forked-stdout", () -> {
            try {
                out.transferTo(java.io.Writer.nullWriter()); // keep stdout from filling its pipe
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    int port() {
        return port;
    }

    /** The PEM file of the self-signed certificate the server made ({@code --tls}); null if it made none. */
    Path certificate() {
        return certificate;
    }

    /** What the server logged so far. */
    String stderr() {
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    /**
     * Waits until the server has logged {@code text} (the log is written after the event it
     * reports, and reaches us through a pipe); returns everything logged by then.
     */
    String awaitLog(String text, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (stderr) {
            long left;
            while (stderr.indexOf(text) < 0 && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(stderr, left);
            }
            return stderr.toString();
        }
    }

    /** A field of {@code /proc/PID/status} in KiB ({@code VmRSS} now, {@code VmHWM} the peak). */
    long statusKib(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").strip());
            }
        }
        throw new IOException("no " + field + " in /proc/" + process.pid() + "/status");
    }

    /** Peak resident memory so far ({@code VmHWM}) minus {@code baselineKib}, in MiB. */
    long peakGrowthMib(long baselineKib) throws IOException {
        return (statusKib("VmHWM") - baselineKib) / 1024;
    }

    /**
     * Stops the server as a service manager would (SIGTERM: its shutdown hooks run, which delete its
     * certificate), and deletes the certificate's files should they still be there (a forced kill).
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            stderrDrained.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
        } finally {
            deleteCertificate();
        }
    }

    private void deleteCertificate() {
        if (certificate == null) {
            return;
        }
        try {
            Files.deleteIfExists(certificate);
            Files.deleteIfExists(certificate.resolveSibling("key.pem"));
            Files.deleteIfExists(certificate.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a finished client example printed and returned. */
    record Outcome(int status, String out, String err, long millis) {
    }

    /**
     * Runs a client example to its end in a JVM of its own, {@code stdin} as its input; fails if
     * it does not end within 60 s.
     */
    static Outcome runToEnd(String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try (var in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not end within 60 s: " + args[0]);
        }
        return new Outcome(p.exitValue(), out, err.get(10, TimeUnit.SECONDS),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }
}
