package io.rill.testsuite.socket;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A fresh JVM running a main class of these tests on the test class path, optionally under a
 * descriptor limit set by util-linux {@code prlimit} before the JVM starts. Its output (standard
 * output and error, merged) is read by a daemon thread, so a test can wait for a line with a
 * bound and quote everything on failure. Closing it closes the child's input, which the child
 * takes as the signal to exit.
 */
final class ChildProcess implements AutoCloseable {

    static final Path PRLIMIT = Path.of("/usr/bin/prlimit");

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new ArrayList<>();

    private ChildProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::readOutput, "child-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code args}; {@code nofile} > 0 lowers its descriptor limit (soft and hard). */
    static ChildProcess start(int nofile, Class<?> mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (nofile > 0) {
            command.add(PRLIMIT.toString());
            command.add("--nofile=" + nofile + ":" + nofile);
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED"); // the epoll transport loads JNI
        command.add("-Drill.leakDetection.level=PARANOID");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return new ChildProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                synchronized (all) {
                    all.add(line);
                }
                lines.add(line);
            }
        } catch (IOException e) {
            lines.add("(reading the child's output failed: " + e + ")");
        }
    }

    /** The next line of output containing {@code text}, or null if none came within {@code millis}. */
    String awaitLine(String text, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (;;) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
            if (line == null || line.contains(text)) {
                return line;
            }
        }
    }

    /** How many lines so far contain {@code text}. */
    long count(String text) {
        synchronized (all) {
            return all.stream().filter(l -> l.contains(text)).count();
        }
    }

    /** Everything the child printed so far, for failure messages. */
    String output() {
        synchronized (all) {
            return String.join("\n", all);
        }
    }

    @Override
    public void close() throws IOException {
        process.getOutputStream().close();
        try {
            if (!process.waitFor(AbstractSocketTest.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(AbstractSocketTest.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
