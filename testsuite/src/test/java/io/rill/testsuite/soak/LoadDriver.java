package io.rill.testsuite.soak;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs the mixed load for one phase: a thread of well-behaved requests per server, and two fault
 * injectors that take a server at random and, at random, reset it mid-write, half-close mid-request,
 * stall a reader, send an attack, or (one time in ten) open and abandon a burst of connections.
 * {@link #stop} ends the phase; every connection the driver opened is closed by then.
 */
final class LoadDriver {

    static final int FAULT_THREADS = 2;
    static final int ABANDON_BURST = 250;

    private final List<SoakServer> servers;
    private final Ledger ledger;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final ExecutorService threads = Executors.newCachedThreadPool(daemon("soak-load"));
    private final ExecutorService writers = Executors.newCachedThreadPool(daemon("soak-writer"));

    LoadDriver(List<SoakServer> servers, Ledger ledger) {
        this.servers = servers;
        this.ledger = ledger;
    }

    void start() {
        Workloads workloads = new Workloads(ledger);
        for (SoakServer server : servers) {
            threads.submit(() -> {
                while (stop.getCount() > 0) {
                    try {
                        switch (server.protocol) {
                            case HTTP -> workloads.http(server);
                            case ECHO -> workloads.echo(server);
                            case WEBSOCKET -> workloads.webSocket(server);
                            case HTTP2 -> workloads.http2(server);
                            case UDP -> workloads.udp(server);
                        }
                    } catch (Exception e) {
                        ledger.failure(server.label + ": load: " + e);
                    }
                }
            });
        }
        Faults faults = new Faults(ledger, stop, writers);
        Attacks attacks = new Attacks(ledger);
        // The faults are a stream's (resets, half-closes, stalls, abandoned connections, HTTP
        // attacks): a UDP server gets only its load, whose datagrams may be dropped anyway.
        List<SoakServer> streams = servers.stream().filter(s -> s.protocol != SoakServer.Protocol.UDP).toList();
        for (int i = 0; i < FAULT_THREADS && !streams.isEmpty(); i++) {
            threads.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (stop.getCount() > 0) {
                    SoakServer server = streams.get(random.nextInt(streams.size()));
                    int pick = random.nextInt(10);
                    String kind = pick == 0 ? Faults.ABANDON : pick < 3 ? Faults.RESET : pick < 5 ? Faults.HALF_CLOSE
                            : pick < 7 ? Faults.STALL : "attack";
                    try {
                        switch (kind) {
                            case Faults.ABANDON -> faults.abandon(server, ABANDON_BURST);
                            case Faults.RESET -> faults.resetMidWrite(server);
                            case Faults.HALF_CLOSE -> faults.halfClose(server);
                            case Faults.STALL -> faults.stalledReader(server);
                            default -> attacks.send(server);
                        }
                    } catch (Exception e) {
                        // The fault itself can make the server close first; what broke is counted, and
                        // a request that should have been answered stays pending in the ledger (lost).
                        ledger.expected(kind + " -> " + e.getClass().getSimpleName());
                    }
                }
            });
        }
    }

    /** Ends the phase and waits for every connection to be done with. */
    void stop() throws InterruptedException {
        stop.countDown();
        threads.shutdown();
        if (!threads.awaitTermination(2, TimeUnit.MINUTES)) {
            ledger.failure("the load threads did not finish within 2 minutes of the stop");
            threads.shutdownNow();
        }
        writers.shutdownNow();
        writers.awaitTermination(30, TimeUnit.SECONDS);
    }

    /** Daemon threads: a soak that failed must not keep the test JVM alive. */
    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
