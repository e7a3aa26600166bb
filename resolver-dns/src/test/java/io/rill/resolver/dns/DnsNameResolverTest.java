package io.rill.resolver.dns;

import static io.rill.resolver.dns.ScriptedDnsServer.a;
import static io.rill.resolver.dns.ScriptedDnsServer.answer;
import static io.rill.resolver.dns.ScriptedDnsServer.question;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.EventLoop;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsRdata;
import io.rill.handler.codec.dns.DnsRecord;
import io.rill.handler.codec.dns.DnsRecordType;
import io.rill.resolver.dns.ScriptedDnsServer.Reply;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Future;

/**
 * DnsNameResolver against a scripted server on 127.0.0.1, over NIO and epoll: answers, faults,
 * spoofing, caching. Each test's server says exactly what it answers; nothing waits on a clock
 * except a query timeout the test is about.
 */
class DnsNameResolverTest {

    private MultiThreadIoEventLoopGroup group;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    @TempDir
    Path dir;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        if (group != null) {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
        }
    }

    private ScriptedDnsServer server(Function<DnsMessage, List<Reply>> udp) throws Exception {
        ScriptedDnsServer s = new ScriptedDnsServer(udp);
        toClose.add(s);
        return s;
    }

    private ScriptedDnsServer server(Function<DnsMessage, List<Reply>> udp, Function<DnsMessage, List<Reply>> tcp)
            throws Exception {
        ScriptedDnsServer s = new ScriptedDnsServer(udp, tcp);
        toClose.add(s);
        return s;
    }

    private DnsNameResolver resolver(Transport t, List<InetSocketAddress> servers, Consumer<DnsNameResolverBuilder> more) {
        assumeTrue(t.available(), "epoll not available here");
        if (group == null) {
            group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("dns-test", true), t.ioHandler());
        }
        DnsNameResolverBuilder b = DnsNameResolver.builder((EventLoop) group.next())
                .resolvConf(null).hostsFile(null).nameServers(servers).searchDomains(List.of())
                .queryTimeout(Duration.ofMillis(500)).attempts(1).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                .datagramChannelFactory(t.datagram()).socketChannelFactory(t.stream()).clock(clock::get);
        more.accept(b);
        DnsNameResolver r = b.build();
        toClose.add(r::close);
        return r;
    }

    private static <T> Future<T> await(Future<T> f) throws InterruptedException {
        assertTrue(f.await(20, TimeUnit.SECONDS), "the resolve did not complete");
        return f;
    }

    private static List<InetAddress> addresses(String... literals) throws Exception {
        List<InetAddress> out = new ArrayList<>();
        for (String l : literals) {
            out.add(InetAddress.getByName(l));
        }
        return out;
    }

    private static Function<DnsMessage, List<Reply>> answering(String address, long ttl) {
        return q -> List.of(Reply.of(answer(q, 0, List.of(a(question(q).name(), address, ttl)), List.of())));
    }

    private static DnsRecord soa(String zone, long ttl, long minimum) {
        return new DnsRecord(zone, DnsRecordType.SOA, 1, ttl,
                new DnsRdata.Soa("ns." + zone, "hostmaster." + zone, 1, 3600, 600, 86400, minimum));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void resolvesAndCachesForTheTtl(Transport t) throws Exception {
        ScriptedDnsServer s = server(answering("192.0.2.1", 30));
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> { });
        assertEquals(addresses("192.0.2.1"), await(r.resolveAll("host.example")).getNow());
        assertEquals(addresses("192.0.2.1"), await(r.resolveAll("host.example")).getNow());
        assertEquals(1, s.received.size(), "the second resolve came from the cache");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(31));
        assertEquals(addresses("192.0.2.1"), await(r.resolveAll("host.example")).getNow());
        assertEquals(2, s.received.size(), "past its TTL the answer is asked again");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void ttlsAreClampedToTheConfiguredBounds(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> List.of(Reply.of(answer(q, 0, List.of(
                a(question(q).name(), "192.0.2.1", question(q).name().startsWith("long") ? 100_000 : 0)), List.of()))));
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.ttl(Duration.ofSeconds(5), Duration.ofSeconds(60)));
        await(r.resolveAll("zero.example"));
        await(r.resolveAll("long.example"));
        clock.addAndGet(TimeUnit.SECONDS.toNanos(4));
        await(r.resolveAll("zero.example"));
        assertEquals(2, s.received.size(), "a TTL of 0 is cached for minTtl");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(57));
        await(r.resolveAll("long.example"));
        assertEquals(3, s.received.size(), "a TTL of 100000 s is cached for maxTtl only");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void dns_02_spoofedAnswersAreIgnoredAndTheRealOneAccepted(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> {
            DnsMessage real = answer(q, 0, List.of(a(question(q).name(), "192.0.2.1", 60)), List.of());
            DnsMessage wrongId = new DnsMessage(q.id() ^ 1, real.flags(), real.questions(),
                    List.of(a(question(q).name(), "203.0.113.66", 60)), List.of(), List.of(), null);
            DnsMessage wrongQuestion = new DnsMessage(q.id(), real.flags(),
                    List.of(io.rill.handler.codec.dns.DnsQuestion.in("other.example", 1)),
                    List.of(a("other.example.", "203.0.113.66", 60)), List.of(), List.of(), null);
            DnsMessage wrongType = new DnsMessage(q.id(), real.flags(),
                    List.of(io.rill.handler.codec.dns.DnsQuestion.in(question(q).name(), DnsRecordType.AAAA)),
                    List.of(), List.of(), List.of(), null);
            DnsMessage spoofedPort = answer(q, 0, List.of(a(question(q).name(), "203.0.113.66", 60)), List.of());
            return List.of(Reply.of(wrongId), Reply.of(wrongQuestion), Reply.of(wrongType),
                    Reply.fromOtherPort(spoofedPort), Reply.raw(new byte[] {1, 2, 3}), Reply.of(real));
        });
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.queryTimeout(Duration.ofSeconds(10)));
        assertEquals(addresses("192.0.2.1"), await(r.resolveAll("victim.example")).getNow());
        assertEquals(5, r.ignoredDatagrams(), "wrong ID, question, type, source port and garbage were all dropped");
        assertEquals(addresses("192.0.2.1"), await(r.resolveAll("victim.example")).getNow(), "the cache holds the real answer");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void dns_03_recordsOutsideTheQuestionsChainAreNeitherUsedNorCached(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> {
            String name = question(q).name();
            if (name.equals("bank.example.")) {
                return List.of(Reply.of(answer(q, 0, List.of(a(name, "192.0.2.10", 60)), List.of())));
            }
            // Answers for attacker.example carry an extra record that claims bank.example.
            return List.of(Reply.of(answer(q, 0, List.of(a("bank.example.", "203.0.113.66", 86400), a(name, "192.0.2.20", 60)),
                    List.of(soa("bank.example.", 86400, 86400)))));
        });
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> { });
        assertEquals(addresses("192.0.2.20"), await(r.resolveAll("attacker.example")).getNow());
        assertEquals(addresses("192.0.2.10"), await(r.resolveAll("bank.example")).getNow(), "bank.example was asked, not poisoned");
        assertEquals(2, s.received.size());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void dns_04_queryIdsAndSourcePortsAreUnpredictable(Transport t) throws Exception {
        ScriptedDnsServer s = server(answering("192.0.2.1", 60));
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> { });
        int n = 64;
        for (int i = 0; i < n; i++) {
            await(r.resolveAll("n" + i + ".example"));
        }
        Set<Integer> ids = new HashSet<>();
        Set<Integer> ports = new HashSet<>();
        int ascendingPorts = 0;
        int last = -1;
        for (ScriptedDnsServer.Received q : s.receivedSoFar()) {
            ids.add(q.query().id());
            ports.add(q.sourcePort());
            if (q.sourcePort() == last + 1) {
                ascendingPorts++;
            }
            last = q.sourcePort();
        }
        // 64 draws from 2^16 collide with probability about 3 %; two collisions are rarer than 1 in 2000.
        assertTrue(ids.size() >= n - 2, "IDs: " + ids.size() + " distinct of " + n);
        assertTrue(ports.size() >= n - 2, "ports: " + ports.size() + " distinct of " + n);
        assertTrue(ascendingPorts < 4, "sequential source ports: " + ascendingPorts);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aServerThatNeverAnswersTimesOutNamingTheSettings(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> List.of());
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.attempts(2).queryTimeout(Duration.ofMillis(200)));
        Future<List<InetAddress>> f = await(r.resolveAll("silent.example"));
        DnsTimeoutException e = assertInstanceOf(DnsTimeoutException.class, f.cause());
        assertTrue(e.getMessage().contains("queryTimeout 200 ms") && e.getMessage().contains("attempts 2"), e.getMessage());
        assertEquals(2, s.received.size(), "one query per attempt");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aSilentServerIsSkippedForTheNext(Transport t) throws Exception {
        ScriptedDnsServer silent = server(q -> List.of());
        ScriptedDnsServer good = server(answering("192.0.2.1", 60));
        DnsNameResolver r = resolver(t, List.of(silent.address(), good.address()), b -> b.queryTimeout(Duration.ofMillis(200)));
        assertEquals(addresses("192.0.2.1"), await(r.resolveAll("host.example")).getNow());
        assertEquals(1, silent.received.size());
        assertEquals(1, good.received.size());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void servfailTriesTheNextServerThenFails(Transport t) throws Exception {
        Function<DnsMessage, List<Reply>> servfail = q -> List.of(Reply.of(answer(q, DnsMessage.SERVFAIL, List.of(), List.of())));
        ScriptedDnsServer a = server(servfail);
        ScriptedDnsServer b = server(servfail);
        DnsNameResolver r = resolver(t, List.of(a.address(), b.address()), x -> { });
        Future<List<InetAddress>> f = await(r.resolveAll("broken.example"));
        DnsServerFailureException e = assertInstanceOf(DnsServerFailureException.class, f.cause());
        assertEquals(DnsMessage.SERVFAIL, e.rcode());
        assertTrue(e.getMessage().contains("SERVFAIL"), e.getMessage());
        assertEquals(1, a.received.size());
        assertEquals(1, b.received.size());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void nxdomainFailsAtOnceAndIsCachedForTheSoaMinimum(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> List.of(Reply.of(answer(q, DnsMessage.NXDOMAIN, List.of(),
                List.of(soa("example.", 3600, 30))))));
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.queryTimeout(Duration.ofSeconds(10)));
        long start = System.nanoTime();
        Future<List<InetAddress>> f = await(r.resolveAll("gone.example"));
        assertInstanceOf(DnsNameNotFoundException.class, f.cause());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "no timeout waited");
        assertInstanceOf(DnsNameNotFoundException.class, await(r.resolveAll("gone.example")).cause());
        assertEquals(1, s.received.size(), "negative answer cached");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(31));
        await(r.resolveAll("gone.example"));
        assertEquals(2, s.received.size(), "for min(SOA TTL, MINIMUM) = 30 s");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aTruncatedAnswerIsAskedAgainOverTcp(Transport t) throws Exception {
        ScriptedDnsServer s = server(
                q -> List.of(Reply.of(new DnsMessage(q.id(), DnsMessage.FLAG_QR | DnsMessage.FLAG_TC | DnsMessage.FLAG_RD,
                        q.questions(), List.of(), List.of(), List.of(), null))),
                q -> {
                    List<DnsRecord> many = new ArrayList<>();
                    for (int i = 1; i <= 100; i++) {
                        many.add(a(question(q).name(), "10.0.0." + i, 60));
                    }
                    return List.of(Reply.of(answer(q, 0, many, List.of())));
                });
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.queryTimeout(Duration.ofSeconds(10)));
        List<InetAddress> got = await(r.resolveAll("big.example")).getNow();
        assertEquals(100, got.size());
        assertEquals(List.of(false, true), s.receivedSoFar().stream().map(ScriptedDnsServer.Received::overTcp).toList());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aUdpAnswerAsLargeAsTheAdvertisedPayloadSizeIsReadWhole(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> {
            List<DnsRecord> many = new ArrayList<>();
            for (int i = 1; i <= 200; i++) {
                many.add(a(question(q).name(), "10.0." + (i / 250) + "." + (i % 250), 60));
            }
            return List.of(Reply.of(answer(q, 0, many, List.of())));
        });
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.udpPayloadSize(4096));
        assertEquals(200, await(r.resolveAll("wide.example")).getNow().size(), "a 3.2 KB datagram, over the 2 KB default buffer");
        assertEquals(1, s.received.size(), "over UDP, no retry");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void onlyMalformedAnswersFailWithDnsMalformedAnswerException(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> {
            // The header of an answer whose question's name is a pointer to itself.
            byte[] loop = {(byte) (q.id() >> 8), (byte) q.id(), (byte) 0x81, (byte) 0x80, 0, 1, 0, 0, 0, 0, 0, 0,
                (byte) 0xC0, 12, 0, 1, 0, 1};
            return List.of(Reply.raw(loop));
        });
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.queryTimeout(Duration.ofMillis(300)));
        Future<List<InetAddress>> f = await(r.resolveAll("loop.example"));
        DnsMalformedAnswerException e = assertInstanceOf(DnsMalformedAnswerException.class, f.cause());
        assertTrue(e.getCause().getMessage().contains("loop"), e.getCause().getMessage());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void dns_06_cnameChainsAreFollowedAndLoopsRefused(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> {
            String name = question(q).name();
            return switch (name) {
                case "alias.example." -> List.of(Reply.of(answer(q, 0, List.of(new DnsRecord(name, DnsRecordType.CNAME, 1, 60,
                        new DnsRdata.Name("target.example."))), List.of())));
                case "target.example." -> List.of(Reply.of(answer(q, 0, List.of(a(name, "192.0.2.5", 60)), List.of())));
                case "ping.example." -> List.of(Reply.of(answer(q, 0, List.of(
                        new DnsRecord(name, DnsRecordType.CNAME, 1, 60, new DnsRdata.Name("pong.example.")),
                        new DnsRecord("pong.example.", DnsRecordType.CNAME, 1, 60, new DnsRdata.Name("ping.example."))),
                        List.of())));
                default -> List.of();
            };
        });
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> { });
        assertEquals(addresses("192.0.2.5"), await(r.resolveAll("alias.example")).getNow());
        assertEquals(2, s.received.size(), "the alias, then its target");
        assertInstanceOf(DnsCnameLoopException.class, await(r.resolveAll("ping.example")).cause());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void kubernetesNdots5SearchListMovesOnAtEachNxdomain(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> question(q).name().equals("api.example.com.")
                ? List.of(Reply.of(answer(q, 0, List.of(a("api.example.com.", "192.0.2.7", 60)), List.of())))
                : List.of(Reply.of(answer(q, DnsMessage.NXDOMAIN, List.of(), List.of(soa("cluster.local.", 5, 5))))));
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.ndots(5).queryTimeout(Duration.ofSeconds(10))
                .searchDomains(List.of("default.svc.cluster.local", "svc.cluster.local", "cluster.local")));
        long start = System.nanoTime();
        assertEquals(addresses("192.0.2.7"), await(r.resolveAll("api.example.com")).getNow());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "no timeout waited");
        assertEquals(List.of("api.example.com.default.svc.cluster.local.", "api.example.com.svc.cluster.local.",
                "api.example.com.cluster.local.", "api.example.com."), names(s));
        s.received.clear();
        r.clearCache();
        assertEquals(addresses("192.0.2.7"), await(r.resolveAll("api.example.com.")).getNow());
        assertEquals(List.of("api.example.com."), names(s), "a trailing dot skips the search list");
    }

    private static List<String> names(ScriptedDnsServer s) {
        return s.receivedSoFar().stream().map(q -> question(q.query()).name()).toList();
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void identicalQueriesInFlightShareOneQuery(Transport t) throws Exception {
        ScriptedDnsServer s = server(answering("192.0.2.1", 60));
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> { });
        List<Future<List<InetAddress>>> all = new ArrayList<>();
        r.loop().submit(() -> {
            for (int i = 0; i < 10; i++) {
                all.add(r.resolveAll(i % 2 == 0 ? "same.example" : "SAME.example."));
            }
        }).sync();
        for (Future<List<InetAddress>> f : all) {
            assertEquals(addresses("192.0.2.1"), await(f).getNow());
        }
        assertEquals(1, s.received.size(), "ten resolves, one query");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void bothFamiliesComeInThePreferredOrder(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> {
            String name = question(q).name();
            DnsRecord rec = question(q).type() == DnsRecordType.A ? a(name, "192.0.2.1", 60)
                    : new DnsRecord(name, DnsRecordType.AAAA, 1, 60, new DnsRdata.Address(addressOf("2001:db8::1")));
            return List.of(Reply.of(answer(q, 0, List.of(rec), List.of())));
        });
        DnsNameResolver v6first = resolver(t, List.of(s.address()), b -> b.resolvedAddressTypes(ResolvedAddressTypes.IPV6_PREFERRED));
        assertEquals(addresses("2001:db8::1", "192.0.2.1"), await(v6first.resolveAll("dual.example")).getNow());
        DnsNameResolver v4first = resolver(t, List.of(s.address()), b -> b.resolvedAddressTypes(ResolvedAddressTypes.IPV4_PREFERRED));
        assertEquals(addresses("192.0.2.1", "2001:db8::1"), await(v4first.resolveAll("dual.example")).getNow());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aFamilyThatDoesNotAnswerIsWaitedForOnlyTheResolutionDelay(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> question(q).type() == DnsRecordType.A
                ? List.of(Reply.of(answer(q, 0, List.of(a(question(q).name(), "192.0.2.1", 60)), List.of())))
                : List.of()); // AAAA never answered
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.resolvedAddressTypes(ResolvedAddressTypes.IPV4_PREFERRED)
                .queryTimeout(Duration.ofSeconds(30)).resolutionDelay(Duration.ofMillis(50)));
        Future<List<InetAddress>> f = r.resolveAll("slow-aaaa.example");
        // Far less than the AAAA query's 30 s timeout: the A addresses go once the delay is over.
        assertTrue(f.await(10, TimeUnit.SECONDS), "the resolve waited for the silent AAAA query");
        assertEquals(addresses("192.0.2.1"), f.getNow());
        assertEquals(addresses("192.0.2.1"), await(r.resolveAll("slow-aaaa.example")).getNow());
        assertEquals(1, s.receivedSoFar().stream().filter(x -> question(x.query()).type() == DnsRecordType.A).count(),
                "the A answer came from the question cache the second time");
    }

    private static InetAddress addressOf(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void theHostsFileIsReadAgainWhenItChanges(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> List.of());
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "# test\n10.0.0.1 myhost myalias # comment\n::1 myhost\n");
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.hostsFile(hosts).hostsRecheckInterval(Duration.ZERO));
        assertEquals(addresses("10.0.0.1"), await(r.resolveAll("MyAlias")).getNow());
        Files.writeString(hosts, "10.0.0.2 myhost\n");
        Files.setLastModifiedTime(hosts, FileTime.fromMillis(Files.getLastModifiedTime(hosts).toMillis() + 5000));
        assertEquals(addresses("10.0.0.2"), await(r.resolveAll("myhost")).getNow());
        assertEquals(0, s.received.size(), "the hosts file answered without DNS");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void rotateSpreadsQueriesOverTheServers(Transport t) throws Exception {
        ScriptedDnsServer a = server(answering("192.0.2.1", 60));
        ScriptedDnsServer b = server(answering("192.0.2.1", 60));
        DnsNameResolver r = resolver(t, List.of(a.address(), b.address()), x -> x.rotate(true));
        for (int i = 0; i < 4; i++) {
            await(r.resolveAll("r" + i + ".example"));
        }
        assertEquals(2, a.received.size());
        assertEquals(2, b.received.size());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void closingTheResolverFailsWhatItIsAskingAndClosesItsSockets(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> List.of());
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> b.queryTimeout(Duration.ofSeconds(30)));
        Future<List<InetAddress>> f = r.resolveAll("pending.example");
        assertTrue(s.firstQuery.await(10, TimeUnit.SECONDS), "the query reached the server");
        r.close();
        assertTrue(f.await(5, TimeUnit.SECONDS), "failed at the close, not after the 30 s timeout");
        assertInstanceOf(DnsResolveException.class, f.cause());
        assertTrue(f.cause().getMessage().contains("resolver closed"), f.cause().getMessage());
        assertEquals(0, r.loop().submit(() -> r.openChannelCount()).get(5, TimeUnit.SECONDS));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void literalsNeverReachTheServer(Transport t) throws Exception {
        ScriptedDnsServer s = server(q -> List.of());
        DnsNameResolver r = resolver(t, List.of(s.address()), b -> { });
        assertEquals(addresses("192.0.2.9"), await(r.resolveAll("192.0.2.9")).getNow());
        assertEquals(addresses("2001:db8::9"), await(r.resolveAll("[2001:db8::9]")).getNow());
        assertEquals(0, s.received.size());
    }
}
