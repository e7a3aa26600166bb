package io.rill.testsuite.soak;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The soak's figures: every server's RSS, live heap and descriptors at each sample (cold start,
 * baseline, each minute, end), and the ledger's counts, printed as plain-text tables.
 */
final class SoakReport {

    private final List<SoakServer> servers;
    /** Sample name to each server's sample, in the order taken. */
    private final Map<String, Map<SoakServer, SoakServer.Sample>> samples = new LinkedHashMap<>();

    SoakReport(List<SoakServer> servers) {
        this.servers = servers;
    }

    Map<SoakServer, SoakServer.Sample> sample(String name) throws IOException, InterruptedException {
        Map<SoakServer, SoakServer.Sample> taken = new LinkedHashMap<>();
        for (SoakServer server : servers) {
            taken.put(server, server.sample(name));
        }
        samples.put(name, taken);
        return taken;
    }

    String render(Ledger ledger, Map<String, List<String>> leaks, int minutes) {
        StringBuilder out = new StringBuilder();
        out.append("\n==== soak summary: ").append(minutes).append(" min, ").append(servers.size())
                .append(" server JVMs ====\n");
        out.append(String.format("requests served: %d (lost %d, answered twice %d); faults injected: %d; failures: %d%n",
                ledger.servedTotal(), ledger.lost(), ledger.duplicates(), ledger.faultTotal(), ledger.failures()));
        counts(out, "served per server", ledger.served());
        counts(out, "datagrams dropped per UDP server (UDP may drop; not lost requests)", ledger.dropped());
        counts(out, "faults injected per kind", ledger.faults());
        counts(out, "expected errors per kind (what the server answered to a fault or attack)", ledger.outcomes());
        out.append("leak reports: ").append(leaks.isEmpty() ? "none" : leaks.keySet()).append('\n');
        table(out, "RSS (MiB)", s -> s.rssKib() / 1024);
        table(out, "RSS after the C heap gave back its free pages (System.trim_native_heap; MiB)", s -> s.trimmedRssKib() / 1024);
        table(out, "live heap after full GC (KiB)", s -> s.heapBytes() / 1024);
        table(out, "descriptors", s -> s.fds());
        return out.toString();
    }

    private static void counts(StringBuilder out, String title, Map<String, Long> counts) {
        out.append(title).append(":\n");
        counts.forEach((kind, count) -> out.append(String.format("  %-48s %10d%n", kind, count)));
    }

    private void table(StringBuilder out, String title, ToLongFunction<SoakServer.Sample> value) {
        out.append(title).append(":\n");
        List<String> header = new ArrayList<>();
        header.add(String.format("%-6s", ""));
        servers.forEach(s -> header.add(String.format("%12s", s.label)));
        out.append(String.join("", header)).append('\n');
        samples.forEach((name, taken) -> {
            out.append(String.format("%-6s", name));
            servers.forEach(s -> out.append(String.format("%12d", value.applyAsLong(taken.get(s)))));
            out.append('\n');
        });
    }
}
