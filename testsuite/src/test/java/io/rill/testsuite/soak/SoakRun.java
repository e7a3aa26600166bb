package io.rill.testsuite.soak;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The soak (issue 17): every example server in a JVM of its own, under mixed load and faults for
 * {@code soak.minutes}, then checked: no request lost or answered twice, every provoked error as
 * the security cases say, no leak report (PARANOID), memory and descriptors back near where they
 * started, every server still answering. Not a unit test: the {@code soak} profile runs it
 * ({@code scripts/soak.sh MINUTES}); the name keeps Surefire's default includes from finding it.
 *
 * <p>Bounds, measured against a baseline taken after a 20 s warm-up under the same load, with the
 * driver's connections closed (the cold start is printed too, but classes, JIT code, TLS session
 * caches and the buffer pool's first chunks all legitimately grow in the first seconds):
 * <ul>
 * <li>live heap (after a full GC) within +16 MiB or +20 %, whichever is larger: what stays live
 *     between requests is caches with fixed bounds; a leak of one object per request over
 *     hundreds of thousands of requests passes either bound;
 * <li>RSS within +64 MiB, both measured after the C heap gave back its free pages
 *     ({@link SoakServer#trimmedRssKib}): the heap is committed and touched at start-up
 *     ({@code -Xms = -Xmx}, {@code AlwaysPreTouch}), so growth is native: JIT code, metaspace,
 *     pooled direct chunks, which the pool keeps for reuse, and live C heap. Untrimmed, glibc's
 *     arenas keep what the native TLS engine freed, a plateau of about 70 MiB above the baseline
 *     for the tls-openssl server that is not memory in use (both figures are printed);
 * <li>descriptors within ±4 of the baseline: only the driver's connections come and go;
 * <li>UDP: no datagram answered twice or wrong; at most 5 in 1000 dropped (counted apart from
 *     lost requests, since UDP may drop).
 * </ul>
 */
class SoakRun {

    static final long HEAP_SLACK_BYTES = 16L << 20;
    static final long RSS_SLACK_KIB = 64L << 10;
    static final int FD_SLACK = 4;
    /**
     * UDP may drop, but on loopback only when a socket's receive buffer is full: the server's,
     * when its loop falls behind a burst, or the driver's. The driver keeps 32 datagrams in flight
     * per socket, far below either buffer, so more than 5 in 1000 lost means the server is not
     * keeping up or drops datagrams itself.
     */
    static final long DATAGRAM_LOSS_PER_MILLE = 5;

    @Test
    void everyExampleServerKeepsServingUnderLoadAndFaults() throws Exception {
        int minutes = Integer.getInteger("soak.minutes", 2);
        Path jar = Path.of(System.getProperty("soak.exampleJar", "../example/target/rill-example.jar"));
        Path logs = Path.of(System.getProperty("soak.logDir", "target/soak"));
        assertTrue(Files.isRegularFile(jar), jar + " is missing: build it with mvn -B package -pl example -am");
        List<SoakServer> servers = startServers(jar, logs);
        try {
            run(servers, minutes);
        } finally {
            servers.forEach(SoakServer::close);
        }
    }

    private static void run(List<SoakServer> servers, int minutes) throws Exception {
        Ledger ledger = new Ledger();
        SoakReport report = new SoakReport(servers);
        report.sample("cold");

        LoadDriver warmUp = new LoadDriver(servers, ledger);
        warmUp.start();
        pause(20, TimeUnit.SECONDS);
        warmUp.stop();
        awaitQuiet(servers);
        Map<SoakServer, SoakServer.Sample> baseline = report.sample("base");

        LoadDriver load = new LoadDriver(servers, ledger);
        long started = System.nanoTime();
        load.start();
        for (int minute = 1; minute <= minutes; minute++) {
            pause(started + TimeUnit.MINUTES.toNanos(minute) - System.nanoTime(), TimeUnit.NANOSECONDS);
            report.sample(minute + "m");
            System.out.printf("soak: minute %d of %d, %d requests served, %d faults injected, %d failures%n",
                    minute, minutes, ledger.servedTotal(), ledger.faultTotal(), ledger.failures());
        }
        load.stop();
        awaitQuiet(servers);
        Map<SoakServer, SoakServer.Sample> end = report.sample("end");

        // After the full GCs of the samples: whatever leaked is now unreachable, and the detector
        // reports it when the next tracked buffer is allocated, which the answers below do.
        List<String> problems = new ArrayList<>();
        Workloads workloads = new Workloads(ledger);
        for (SoakServer server : servers) {
            if (!server.isAlive()) {
                problems.add(server.label + " is dead: " + server.logTail(20));
                continue;
            }
            long before = ledger.servedTotal();
            try {
                switch (server.protocol) {
                    case HTTP -> workloads.http(server);
                    case ECHO -> workloads.echo(server);
                    case WEBSOCKET -> workloads.webSocket(server);
                    case HTTP2 -> workloads.http2(server);
                    case UDP -> workloads.udp(server);
                }
            } catch (IOException e) {
                problems.add(server.label + " no longer answers: " + e);
            }
            if (ledger.servedTotal() == before) {
                problems.add(server.label + " answered nothing at the end");
            }
        }
        pause(2, TimeUnit.SECONDS); // the leak reports are written by the thread that allocated, then reach the log
        Map<String, List<String>> leaks = new LinkedHashMap<>();
        for (SoakServer server : servers) {
            List<String> reports = server.leakReports();
            if (!reports.isEmpty()) {
                leaks.put(server.label, reports);
                problems.add(server.label + ": " + reports.size() + " leak reports, the first: " + reports.get(0));
            }
            SoakServer.Sample base = baseline.get(server);
            SoakServer.Sample last = end.get(server);
            long heapBound = base.heapBytes() + Math.max(HEAP_SLACK_BYTES, base.heapBytes() / 5);
            if (last.heapBytes() > heapBound) {
                problems.add(server.label + ": live heap " + last.heapBytes() + " bytes, bound " + heapBound);
            }
            if (last.trimmedRssKib() > base.trimmedRssKib() + RSS_SLACK_KIB) {
                problems.add(server.label + ": RSS after trimming the C heap " + last.trimmedRssKib() + " KiB, baseline "
                        + base.trimmedRssKib() + " KiB + 64 MiB (untrimmed " + base.rssKib() + " -> " + last.rssKib() + " KiB)");
            }
            if (Math.abs(last.fds() - base.fds()) > FD_SLACK) {
                problems.add(server.label + ": " + last.fds() + " descriptors, baseline " + base.fds());
            }
        }
        ledger.dropped().forEach((label, dropped) -> {
            long sent = dropped + ledger.served().getOrDefault(label, 0L);
            if (dropped > sent * DATAGRAM_LOSS_PER_MILLE / 1000) {
                problems.add(label + ": " + dropped + " of " + sent + " datagrams dropped, more than "
                        + DATAGRAM_LOSS_PER_MILLE + " per mille");
            }
        });
        if (ledger.lost() > 0) {
            problems.add(ledger.lost() + " requests never answered");
        }
        if (ledger.failures() > 0) {
            problems.add(ledger.failures() + " failures, the first: " + String.join("\n  ", ledger.failureMessages()));
        }
        System.out.println(report.render(ledger, leaks, minutes));
        assertTrue(problems.isEmpty(), "the soak failed:\n" + String.join("\n", problems));
    }

    /**
     * The servers a user would run, each as they would run it. TLS twice: {@code java -jar} alone
     * gets the JDK provider (the jar does not bundle netty-tcnative); with netty-tcnative on the
     * class path, the default provider is OPENSSL (also for h2 by ALPN).
     */
    private static List<SoakServer> startServers(Path jar, Path logs) throws Exception {
        List<Path> tcnative = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.contains("netty-tcnative")) {
                tcnative.add(Path.of(entry));
            }
        }
        List<SoakServer> servers = new ArrayList<>();
        try {
            List<Path> none = List.of();
            startIfChosen(servers, "hello-epoll", SoakServer.Protocol.HTTP, jar, none, logs, "http-hello", "--transport", "epoll");
            startIfChosen(servers, "hello-nio", SoakServer.Protocol.HTTP, jar, none, logs, "http-hello", "--transport", "nio");
            startIfChosen(servers, "tls-jdk", SoakServer.Protocol.HTTP, jar, none, logs, "http-hello", "--tls");
            startIfChosen(servers, "tls-openssl", SoakServer.Protocol.HTTP, jar, tcnative, logs, "http-hello", "--tls");
            startIfChosen(servers, "echo-epoll", SoakServer.Protocol.ECHO, jar, none, logs, "echo-server", "--transport", "epoll");
            startIfChosen(servers, "echo-nio", SoakServer.Protocol.ECHO, jar, none, logs, "echo-server", "--transport", "nio");
            startIfChosen(servers, "websocket", SoakServer.Protocol.WEBSOCKET, jar, none, logs, "websocket-echo");
            startIfChosen(servers, "h2c", SoakServer.Protocol.HTTP2, jar, none, logs, "http2-hello");
            startIfChosen(servers, "udp-nio", SoakServer.Protocol.UDP, jar, none, logs, "udp-echo", "--transport", "nio");
            startIfChosen(servers, "udp-epoll", SoakServer.Protocol.UDP, jar, none, logs, "udp-echo", "--transport", "epoll");
            startIfChosen(servers, "h2-tls", SoakServer.Protocol.HTTP2, jar, tcnative, logs, "http2-hello", "--tls");
            for (SoakServer server : servers) {
                if (server.label.equals("tls-openssl")) {
                    assertTrue(!tcnative.isEmpty() && mapsNativeTls(server), "tls-openssl runs without netty-tcnative");
                } else if (server.label.equals("tls-jdk")) {
                    assertTrue(!mapsNativeTls(server), "tls-jdk loaded netty-tcnative");
                }
            }
        } catch (Exception | AssertionError e) {
            servers.forEach(SoakServer::close);
            throw e;
        }
        return servers;
    }

    /**
     * Starts the server unless {@code soak.only} (comma-separated labels, for a targeted diagnosis
     * run such as {@code -Dsoak.only=tls-openssl}) leaves it out.
     */
    private static void startIfChosen(List<SoakServer> servers, String label, SoakServer.Protocol protocol, Path jar,
                                      List<Path> classPath, Path logs, String... args) throws IOException {
        String only = System.getProperty("soak.only", "").strip();
        if (only.isEmpty() || List.of(only.split(",")).contains(label)) {
            servers.add(SoakServer.start(label, protocol, jar, classPath, logs, args));
        }
    }

    /** Whether the server has loaded netty-tcnative's library, which only the OPENSSL provider does. */
    private static boolean mapsNativeTls(SoakServer server) throws IOException {
        return Files.readString(Path.of("/proc/" + server.pid() + "/maps")).contains("tcnative");
    }

    /**
     * Waits 12 s, then until no server's descriptor count changes for two seconds (at most 60 s in
     * all). The 12 s outlast the 10 s TLS handshake timeout, which is what ends a connection whose
     * client went silent before its ClientHello without closing (one that closes is let go at its
     * FIN: docs/security-cases.md, case TL-08).
     */
    private static void awaitQuiet(List<SoakServer> servers) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        pause(12, TimeUnit.SECONDS);
        List<Integer> last = List.of();
        int stableFor = 0;
        while (stableFor < 4 && System.nanoTime() < deadline) {
            List<Integer> now = new ArrayList<>();
            for (SoakServer server : servers) {
                now.add(server.fds());
            }
            stableFor = now.equals(last) ? stableFor + 1 : 0;
            last = now;
            pause(500, TimeUnit.MILLISECONDS);
        }
    }

    /** The soak's clock: a timed wait nobody signals. */
    private static void pause(long amount, TimeUnit unit) throws InterruptedException {
        if (amount > 0) {
            new CountDownLatch(1).await(amount, unit);
        }
    }
}
