package io.rill.resolver.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResolvConfTest {

    @Test
    void readsServersSearchAndOptionsAsTheCLibraryDoes() throws Exception {
        ResolvConf c = ResolvConf.parse("""
                # Kubernetes pod
                nameserver 10.96.0.10
                nameserver fe80::1%eth0
                nameserver not-an-address
                nameserver 10.0.0.2
                nameserver 10.0.0.3
                domain ignored.example
                search default.svc.cluster.local svc.cluster.local cluster.local
                options ndots:5 timeout:2 attempts:3 rotate unknown:1
                sortlist 130.155.160.0
                """);
        assertEquals(List.of(new InetSocketAddress(InetAddress.getByName("10.96.0.10"), 53),
                new InetSocketAddress(InetAddress.getByName("fe80::1"), 53),
                new InetSocketAddress(InetAddress.getByName("10.0.0.2"), 53)), c.nameservers(), "at most three");
        assertEquals(List.of("default.svc.cluster.local.", "svc.cluster.local.", "cluster.local."), c.search());
        assertEquals(5, c.ndots());
        assertEquals(Duration.ofSeconds(2), c.timeout());
        assertEquals(3, c.attempts());
        assertTrue(c.rotate());
    }

    @Test
    void anEmptyOrMissingFileGivesTheDefaults(@TempDir Path dir) throws Exception {
        ResolvConf c = ResolvConf.read(dir.resolve("missing"));
        assertEquals(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 53)), c.nameservers());
        assertEquals(List.of(), c.search());
        assertEquals(1, c.ndots());
        assertEquals(Duration.ofSeconds(5), c.timeout());
        assertEquals(2, c.attempts());
        assertFalse(c.rotate());
    }

    @Test
    void optionsAreClamped() {
        ResolvConf c = ResolvConf.parse("options ndots:99 timeout:0 attempts:50\n");
        assertEquals(15, c.ndots());
        assertEquals(Duration.ofSeconds(1), c.timeout());
        assertEquals(5, c.attempts());
    }

    @Test
    void theSearchListAppliesAsNdotsSays() {
        DnsNameResolver r = DnsNameResolver.builder(new io.rill.channel.embedded.EmbeddedChannel().eventLoop())
                .resolvConf(null).hostsFile(null).searchDomains(List.of("a.example", "b.example")).ndots(2).build();
        assertEquals(List.of("db.a.example.", "db.b.example.", "db."), r.candidates("db"));
        assertEquals(List.of("x.y.z.", "x.y.z.a.example.", "x.y.z.b.example."), r.candidates("x.y.z"));
        assertEquals(List.of("db."), r.candidates("db."));
    }
}
