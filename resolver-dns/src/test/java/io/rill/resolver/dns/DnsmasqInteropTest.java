package io.rill.resolver.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.EventLoop;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Future;

/** DnsNameResolver against a real dnsmasq the test starts, over NIO and epoll. */
class DnsmasqInteropTest {

    @TempDir
    static Path dir;
    private static Dnsmasq dnsmasq;
    private MultiThreadIoEventLoopGroup group;
    private DnsNameResolver resolver;

    @BeforeAll
    static void startDnsmasq() throws Exception {
        assumeTrue(Dnsmasq.installed(), "dnsmasq is not installed (.ci/run installs it)");
        StringBuilder hosts = new StringBuilder("192.0.2.10 web.test\n192.0.2.11 web.test\n2001:db8::10 web.test\n"
                + "127.0.0.1 local.test\n::1 dual.test\n127.0.0.1 dual.test\n");
        for (int i = 1; i <= 60; i++) {
            hosts.append("10.1.0.").append(i).append(" big.test\n");
        }
        dnsmasq = Dnsmasq.start(dir, hosts.toString(), "--address=/fixed.test/192.0.2.44",
                "--cname=alias.test,web.test", "--local=/test/");
    }

    @AfterAll
    static void stopDnsmasq() throws Exception {
        if (dnsmasq != null) {
            dnsmasq.close();
        }
    }

    @AfterEach
    void stop() {
        if (resolver != null) {
            resolver.close();
        }
        if (group != null) {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
        }
    }

    private DnsNameResolver resolver(Transport t, Consumer<DnsNameResolverBuilder> more) {
        assumeTrue(t.available(), "epoll not available here");
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("dnsmasq-test", true), t.ioHandler());
        DnsNameResolverBuilder b = DnsNameResolver.builder((EventLoop) group.next()).resolvConf(null).hostsFile(null)
                .nameServers(List.of(dnsmasq.address())).queryTimeout(Duration.ofSeconds(5)).attempts(1)
                .datagramChannelFactory(t.datagram()).socketChannelFactory(t.stream());
        more.accept(b);
        resolver = b.build();
        return resolver;
    }

    private static Future<List<InetAddress>> await(Future<List<InetAddress>> f) throws InterruptedException {
        assertTrue(f.await(20, TimeUnit.SECONDS));
        return f;
    }

    private static Set<InetAddress> set(String... literals) throws Exception {
        Set<InetAddress> out = new HashSet<>();
        for (String l : literals) {
            out.add(InetAddress.getByName(l));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void hostsFileNamesAddressesAndCnamesResolve(Transport t) throws Exception {
        DnsNameResolver r = resolver(t, b -> b.resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertEquals(set("192.0.2.10", "192.0.2.11"), new HashSet<>(await(r.resolveAll("web.test")).getNow()));
        assertEquals(set("192.0.2.10", "192.0.2.11"), new HashSet<>(await(r.resolveAll("alias.test")).getNow()));
        assertEquals(set("192.0.2.44"), new HashSet<>(await(r.resolveAll("fixed.test")).getNow()));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void bothFamiliesComeBackWithThePreferredFirst(Transport t) throws Exception {
        DnsNameResolver r = resolver(t, b -> b.resolvedAddressTypes(ResolvedAddressTypes.IPV6_PREFERRED));
        List<InetAddress> all = await(r.resolveAll("web.test")).getNow();
        assertEquals(3, all.size(), all.toString());
        assertEquals(InetAddress.getByName("2001:db8::10"), all.get(0));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anUnknownNameIsNxdomainAndAnOutOfZoneNameRefused(Transport t) throws Exception {
        DnsNameResolver r = resolver(t, b -> b.resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY));
        assertInstanceOf(DnsNameNotFoundException.class, await(r.resolveAll("nope.test")).cause());
        DnsServerFailureException refused = assertInstanceOf(DnsServerFailureException.class,
                await(r.resolveAll("elsewhere.example")).cause());
        assertEquals(DnsMessage.REFUSED, refused.rcode());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anAnswerTooBigForUdpIsFetchedOverTcp(Transport t) throws Exception {
        // Without EDNS0 a UDP answer holds 512 octets; 60 A records do not fit, so dnsmasq sets TC.
        DnsNameResolver r = resolver(t, b -> b.resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY).udpPayloadSize(0));
        assertEquals(60, await(r.resolveAll("big.test")).getNow().size());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void bootstrapConnectsToANameThroughTheDnsResolver(Transport t) throws Exception {
        resolver(t, b -> { });
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.1"))) {
            DnsAddressResolverGroup dns = new DnsAddressResolverGroup(b -> b.resolvConf(null).hostsFile(null)
                    .nameServers(List.of(dnsmasq.address())).resolvedAddressTypes(ResolvedAddressTypes.IPV4_ONLY)
                    .datagramChannelFactory(t.datagram()).socketChannelFactory(t.stream()));
            try {
                Future<Channel> f = new Bootstrap().group(group).channelFactory(t.stream()).resolver(dns)
                        .handler(new ChannelHandler() { }).connect("local.test", server.getLocalPort());
                assertTrue(f.await(20, TimeUnit.SECONDS));
                assertTrue(f.isSuccess(), String.valueOf(f.cause()));
                assertEquals(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), server.getLocalPort()),
                        f.getNow().remoteAddress());
                f.getNow().close().sync();
            } finally {
                dns.close();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void happyEyeballsFallsBackFromARefusingIpv6AddressToIpv4AtOnce(Transport t) throws Exception {
        resolver(t, b -> { });
        // The server listens on 127.0.0.1 only, so the preferred ::1 refuses (or is unreachable).
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.1"))) {
            DnsAddressResolverGroup dns = new DnsAddressResolverGroup(b -> b.resolvConf(null).hostsFile(null)
                    .nameServers(List.of(dnsmasq.address())).resolvedAddressTypes(ResolvedAddressTypes.IPV6_PREFERRED)
                    .datagramChannelFactory(t.datagram()).socketChannelFactory(t.stream()));
            try {
                long start = System.nanoTime();
                Future<Channel> f = new Bootstrap().group(group).channelFactory(t.stream()).resolver(dns)
                        .connectAttemptDelay(Duration.ofSeconds(30))
                        .handler(new SharableHandler()).connect("dual.test", server.getLocalPort());
                assertTrue(f.await(20, TimeUnit.SECONDS), "did not wait out the 30 s attempt delay");
                assertTrue(f.isSuccess(), String.valueOf(f.cause()));
                assertEquals(InetAddress.getByName("127.0.0.1"), ((InetSocketAddress) f.getNow().remoteAddress()).getAddress());
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20));
                f.getNow().close().sync();
            } finally {
                dns.close();
            }
        }
    }

    /** A handler each attempt's channel can hold: the race makes one channel per address. */
    @ChannelHandler.Sharable
    private static final class SharableHandler implements ChannelHandler {
    }
}
