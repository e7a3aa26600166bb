package io.rill.testsuite.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One example server in a JVM of its own, started as a user starts it ({@code java -jar
 * rill-example.jar NAME ...}, or with netty-tcnative added to the class path for the OPENSSL TLS
 * provider), leak detection at PARANOID, its stderr kept in a log file. Its resident memory,
 * descriptors and live heap are read from outside, through {@code /proc} and {@code jcmd}.
 */
final class SoakServer implements AutoCloseable {

    /**
     * What a server looks like at one moment: resident memory as the system sees it, then after
     * the C heap gave back its free pages; the live heap after a full GC; descriptors.
     */
    record Sample(long rssKib, long trimmedRssKib, long heapBytes, int fds) {
        @Override
        public String toString() {
            return String.format("%5d MiB (%5d trimmed) %6.1f MiB %4d", rssKib / 1024, trimmedRssKib / 1024,
                    heapBytes / 1048576.0, fds);
        }
    }

    /** What a server speaks, which decides the load and the faults it gets. */
    enum Protocol { HTTP, ECHO, WEBSOCKET, HTTP2, UDP }

    final String label;
    final Protocol protocol;
    final boolean tls;
    private final Process process;
    private final Path log;
    private final int port;

    private SoakServer(String label, Protocol protocol, boolean tls, Process process, Path log, int port) {
        this.label = label;
        this.protocol = protocol;
        this.tls = tls;
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts {@code example} with {@code args}; {@code extraClassPath} (may be empty) goes after the
     * jar, in which case the server is started by its main class rather than {@code -jar}.
     */
    static SoakServer start(String label, Protocol protocol, Path jar, List<Path> extraClassPath, Path logDir, String... args)
            throws IOException {
        return start(label, protocol, jar, extraClassPath, logDir, List.of(args));
    }

    private static SoakServer start(String label, Protocol protocol, Path jar, List<Path> extraClassPath, Path logDir,
                                    List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // A heap committed and touched up front: RSS growth then means native memory.
                "-Xms192m", "-Xmx192m", "-XX:+AlwaysPreTouch", "-Drill.leakDetection.level=PARANOID", "--enable-native-access=ALL-UNNAMED"));
        // For a diagnosis run (say -XX:NativeMemoryTracking=summary), space-separated.
        String flags = System.getProperty("soak.serverFlags", "").strip();
        if (!flags.isEmpty()) {
            command.addAll(List.of(flags.split("\\s+")));
        }
        if (extraClassPath.isEmpty()) {
            command.addAll(List.of("-jar", jar.toString()));
        } else {
            StringBuilder cp = new StringBuilder(jar.toString());
            extraClassPath.forEach(p -> cp.append(java.io.File.pathSeparatorChar).append(p));
            command.addAll(List.of("-cp", cp.toString(), "io.rill.example.Main"));
        }
        command.addAll(args);
        command.addAll(List.of("--port", "0", "--threads", "2"));
        Files.createDirectories(logDir);
        Path log = logDir.resolve(label + ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        int port = -1;
        for (String line; port < 0 && (line = out.readLine()) != null; ) {
            if (line.startsWith("Listening on ")) {
                port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
            }
        }
        if (port < 0) {
            process.destroyForcibly();
            throw new IOException(label + " never listened: " + Files.readString(log));
        }
        // Nothing more is printed on stdout after the banner, but a full pipe would block the server.
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(java.io.Writer.nullWriter());
            } catch (IOException ignored) {
                // the server ended
            }
        }, label + "-stdout");
        drain.setDaemon(true);
        drain.start();
        return new SoakServer(label, protocol, args.contains("--tls"), process, log, port);
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Resident set, descriptors and the live heap; the heap figure comes after a full GC (jcmd),
     * whose class histogram is kept next to the log as {@code LABEL.NAME.histogram} for diagnosis.
     */
    Sample sample(String name) throws IOException, InterruptedException {
        long rss = rssKib();
        long heap = liveHeapBytes(log.resolveSibling(label + "." + name + ".histogram"));
        return new Sample(rss, trimmedRssKib(), heap, fds());
    }

    /**
     * Resident memory after {@code jcmd System.trim_native_heap} ({@code malloc_trim(3)}), taken
     * after the full GC of the heap figure, so native memory whose owners were collected is freed
     * too. glibc keeps freed memory in its arenas (up to 8 per core, each touched by whichever
     * threads used it), and BoringSSL mallocs per connection on every event loop, so under TLS
     * load the untrimmed RSS climbs to a plateau set by the peak and stays there (measured: +68
     * MiB in the first minute of the tls-openssl server alone, flat for the next four; the trim
     * gave back 98 MiB). What the trim cannot give back is memory still in use: a leak shows here.
     * On a JDK without the command, this is the untrimmed RSS.
     */
    long trimmedRssKib() throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid()), "System.trim_native_heap").redirectErrorStream(true).start();
        jcmd.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
            throw new IOException("jcmd System.trim_native_heap did not finish for " + label);
        }
        return rssKib();
    }

    int fds() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of("/proc/" + pid() + "/fd"))) {
            return (int) entries.count();
        }
    }

    long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring(6).replace("kB", "").strip());
            }
        }
        throw new IOException("no VmRSS for " + label);
    }

    /**
     * {@code GC.class_histogram} runs a full GC first, so its total is the live heap: garbage not
     * yet collected would make every comparison noise.
     */
    long liveHeapBytes(Path histogram) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid()), "GC.class_histogram").redirectErrorStream(true).redirectOutput(histogram.toFile()).start();
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
            throw new IOException("jcmd GC.class_histogram did not finish for " + label);
        }
        String total = null;
        for (String line : Files.readAllLines(histogram)) {
            if (line.startsWith("Total ")) {
                total = line;
            }
        }
        if (total == null) {
            throw new IOException("jcmd GC.class_histogram gave no total for " + label + ": see " + histogram);
        }
        String[] words = total.trim().split("\\s+");
        return Long.parseLong(words[2]);
    }

    /** The leak detector's reports in the server's log, one per leaked resource. */
    List<String> leakReports() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains("LEAK:")).toList();
    }

    /** The log's lines, for the report of a failed soak. */
    String logTail(int lines) throws IOException {
        List<String> all = Files.readAllLines(log);
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
