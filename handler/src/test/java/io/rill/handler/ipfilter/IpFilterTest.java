package io.rill.handler.ipfilter;

import static io.rill.handler.ipfilter.IpFilterRuleType.ACCEPT;
import static io.rill.handler.ipfilter.IpFilterRuleType.REJECT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelId;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;

class IpFilterTest {

    /** An embedded channel whose peer has the given IP address. */
    static final class PeerChannel extends EmbeddedChannel {
        private final InetSocketAddress peer;

        PeerChannel(InetSocketAddress peer, ChannelHandler... handlers) {
            super(new TestId(), false, handlers);
            this.peer = peer;
            register();
            runPendingTasks();
        }

        @Override
        protected SocketAddress remoteAddress0() {
            return isActive() ? peer : null;
        }
    }

    private static final class TestId implements ChannelId {
        @Override
        public String asShortText() {
            return "peer";
        }

        @Override
        public String asLongText() {
            return "peer-" + System.identityHashCode(this);
        }
    }

    /** Records whether channelActive got past the filter. */
    static final class ActiveRecorder implements ChannelHandler {
        boolean active;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            active = true;
            ctx.fireChannelActive();
        }
    }

    private static InetSocketAddress peer(String ip) {
        try {
            return new InetSocketAddress(InetAddress.getByName(ip), 40000);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code ::ffff:a.b.c.d} kept as an Inet6Address (InetAddress.getByName would turn it into IPv4). */
    private static InetSocketAddress mappedPeer(String ipv4) throws UnknownHostException {
        byte[] v4 = InetAddress.getByName(ipv4).getAddress();
        byte[] v6 = new byte[16];
        v6[10] = (byte) 0xff;
        v6[11] = (byte) 0xff;
        System.arraycopy(v4, 0, v6, 12, 4);
        return new InetSocketAddress(Inet6Address.getByAddress(null, v6, -1), 40000);
    }

    /** True if a channel from {@code peer} survives {@code filter}; checks that rejected ones never reach later handlers. */
    private static boolean admitted(AbstractIpFilter filter, InetSocketAddress peer) {
        ActiveRecorder recorder = new ActiveRecorder();
        PeerChannel ch = new PeerChannel(peer, filter, recorder);
        boolean open = ch.isOpen();
        assertEquals(open, recorder.active, "channelActive passes the filter exactly when the channel is kept");
        if (open) {
            assertNull(ch.pipeline().get(filter.getClass()), "an accepted channel loses the filter");
        }
        ch.finishAndReleaseAll();
        return open;
    }

    // ---------------------------------------------------- docs/security-cases.md, case R-06

    @Test
    void r06_ipv4MappedIpv6PeerMatchesIpv4Rule() throws Exception {
        IpSubnetFilterRule rule = new IpSubnetFilterRule("10.0.0.0", 8, REJECT);
        assertTrue(rule.matches(mappedPeer("10.1.2.3")));
        assertFalse(admitted(new RuleBasedIpFilter(rule), mappedPeer("10.1.2.3")));
        assertFalse(admitted(new IpSubnetFilter(rule), mappedPeer("10.1.2.3")));
        assertTrue(admitted(new IpSubnetFilter(rule), mappedPeer("11.1.2.3")));
    }

    @Test
    void r06_ipv4PeerMatchesIpv4MappedIpv6Rule() {
        IpSubnetFilterRule rule = new IpSubnetFilterRule("::ffff:192.168.0.0", 112, REJECT);
        assertTrue(rule.isIpv4(), "stored in canonical form");
        assertEquals(16, rule.prefixLength());
        assertTrue(rule.matches(peer("192.168.7.7")));
        assertFalse(admitted(new RuleBasedIpFilter(rule), peer("192.168.7.7")));
        assertFalse(admitted(new IpSubnetFilter(rule), peer("192.168.7.7")));
        assertTrue(admitted(new IpSubnetFilter(rule), peer("192.169.0.1")));
    }

    @Test
    void r06_ipv4PeerMatchesWideIpv6RuleInMappedForm() {
        IpSubnetFilterRule everyIpv6 = new IpSubnetFilterRule("::", 0, REJECT);
        assertTrue(everyIpv6.matches(peer("8.8.8.8")));
        assertFalse(admitted(new IpSubnetFilter(everyIpv6), peer("8.8.8.8")));
        IpSubnetFilterRule documentation = new IpSubnetFilterRule("2001:db8::", 32, REJECT);
        assertFalse(documentation.matches(peer("8.8.8.8")));
        assertTrue(admitted(new IpSubnetFilter(documentation), peer("8.8.8.8")));
    }

    @Test
    void r06_mappedPeerCannotDuplicateAUniqueIpv4Peer() throws Exception {
        UniqueIpFilter filter = new UniqueIpFilter();
        PeerChannel first = new PeerChannel(peer("10.0.0.1"), filter);
        assertFalse(admitted(filter, mappedPeer("10.0.0.1")));
        first.finishAndReleaseAll();
    }

    // ---------------------------------------------------------------- rules

    @Test
    void subnetRulesMatchByPrefix() {
        IpSubnetFilterRule v4 = IpSubnetFilterRule.parse("172.16.0.0/12", ACCEPT);
        assertTrue(v4.matches(peer("172.31.255.255")));
        assertFalse(v4.matches(peer("172.32.0.0")));
        IpSubnetFilterRule v6 = IpSubnetFilterRule.parse("2001:db8:abcd::/48", ACCEPT);
        assertTrue(v6.matches(peer("2001:db8:abcd:1::5")));
        assertFalse(v6.matches(peer("2001:db8:abce::1")));
        assertFalse(v6.matches(peer("10.0.0.1")));
        assertTrue(IpSubnetFilterRule.parse("127.0.0.1", ACCEPT).matches(peer("127.0.0.1")));
        assertFalse(IpSubnetFilterRule.parse("127.0.0.1", ACCEPT).matches(peer("127.0.0.2")));
        assertTrue(IpSubnetFilterRule.parse("0.0.0.0/0", ACCEPT).matches(peer("203.0.113.9")));
        assertEquals("10.0.0.0/8 REJECT", new IpSubnetFilterRule("10.9.8.7", 8, REJECT).toString());
    }

    @Test
    void badRulesFailWithoutTouchingDns() {
        assertThrows(IllegalArgumentException.class, () -> new IpSubnetFilterRule("10.0.0.0", 33, ACCEPT));
        assertThrows(IllegalArgumentException.class, () -> new IpSubnetFilterRule("::", 129, ACCEPT));
        assertThrows(IllegalArgumentException.class, () -> new IpSubnetFilterRule("10.0.0.0", -1, ACCEPT));
        assertThrows(IllegalArgumentException.class, () -> new IpSubnetFilterRule("example.com", 8, ACCEPT));
        assertThrows(IllegalArgumentException.class, () -> IpSubnetFilterRule.parse("10.0.0.0/x", ACCEPT));
        assertThrows(IllegalArgumentException.class, () -> IpSubnetFilterRule.parse("1:2:3:4:5:6:7:8:9/64", ACCEPT));
    }

    @Test
    void ruleBasedFilterTakesTheFirstMatch() {
        RuleBasedIpFilter filter = new RuleBasedIpFilter(false,
                IpSubnetFilterRule.parse("10.1.0.0/16", ACCEPT),
                IpSubnetFilterRule.parse("10.0.0.0/8", REJECT));
        assertTrue(admitted(filter, peer("10.1.2.3")));
        assertFalse(admitted(filter, peer("10.2.2.3")));
        assertFalse(admitted(filter, peer("192.0.2.1")), "not found: rejected as configured");
    }

    @Test
    void subnetFilterFindsTheEnclosingSubnetAmongMany() {
        List<IpSubnetFilterRule> rules = new ArrayList<>();
        for (int i = 0; i < 200; i += 2) {
            rules.add(IpSubnetFilterRule.parse("10." + i + ".0.0/16", REJECT));
        }
        rules.add(IpSubnetFilterRule.parse("10.4.5.0/24", REJECT)); // redundant, inside 10.4.0.0/16
        rules.add(IpSubnetFilterRule.parse("2001:db8::/32", REJECT));
        IpSubnetFilter filter = new IpSubnetFilter(rules.toArray(new IpSubnetFilterRule[0]));
        assertFalse(admitted(filter, peer("10.4.5.6")));
        assertFalse(admitted(filter, peer("10.198.255.255")));
        assertTrue(admitted(filter, peer("10.5.0.1")));
        assertTrue(admitted(filter, peer("9.255.255.255")));
        assertFalse(admitted(filter, peer("2001:db8::1")));
        assertTrue(admitted(filter, peer("2001:db9::1")));
    }

    @Test
    void subnetFilterRefusesNestedRulesOfOppositeTypes() {
        assertThrows(IllegalArgumentException.class, () -> new IpSubnetFilter(
                IpSubnetFilterRule.parse("10.0.0.0/8", REJECT), IpSubnetFilterRule.parse("10.1.0.0/16", ACCEPT)));
    }

    // ---------------------------------------------------------------- life cycle

    @Test
    void uniqueFilterAllowsOneChannelPerAddressAtATime() {
        UniqueIpFilter filter = new UniqueIpFilter();
        PeerChannel first = new PeerChannel(peer("192.0.2.1"), filter);
        assertTrue(first.isOpen());
        assertFalse(admitted(filter, peer("192.0.2.1")));
        assertTrue(admitted(filter, peer("192.0.2.2")));
        first.close();
        assertTrue(admitted(filter, peer("192.0.2.1")), "free again once the first closed");
        first.finishAndReleaseAll();
    }

    @Test
    void theRejectionHookMayWriteBeforeTheChannelCloses() {
        List<Object> seen = new ArrayList<>();
        RuleBasedIpFilter filter = new RuleBasedIpFilter(false) {
            @Override
            protected Future<Void> channelRejected(ChannelHandlerContext ctx, InetSocketAddress remote) {
                seen.add(remote);
                return ctx.writeAndFlush(Unpooled.wrappedBuffer("go away\n".getBytes()));
            }
        };
        PeerChannel ch = new PeerChannel(peer("198.51.100.1"), filter);
        assertFalse(ch.isOpen());
        assertEquals(List.of(peer("198.51.100.1")), seen);
        assertTrue(ch.releaseOutbound(), "the goodbye was written");
        ch.finishAndReleaseAll();
    }

    @Test
    void channelsWithoutAnIpPeerPassThrough() {
        ActiveRecorder recorder = new ActiveRecorder();
        EmbeddedChannel ch = new EmbeddedChannel(new RuleBasedIpFilter(false), recorder);
        assertTrue(ch.isOpen());
        assertTrue(recorder.active);
        ch.finishAndReleaseAll();
    }

    @Test
    void aFilterAddedToAnActiveChannelDecidesAtOnce() {
        PeerChannel ch = new PeerChannel(peer("203.0.113.5"));
        ch.pipeline().addLast(new RuleBasedIpFilter(false));
        ch.runPendingTasks();
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void aFilterAddedToAnActiveChannelLeavesItWhenItAccepts() {
        PeerChannel ch = new PeerChannel(peer("203.0.113.5"));
        ch.pipeline().addLast(new RuleBasedIpFilter(true));
        ch.runPendingTasks();
        assertTrue(ch.isOpen());
        assertNull(ch.pipeline().get(RuleBasedIpFilter.class));
        ch.finishAndReleaseAll();
    }

    @Test
    void unresolvedPeersAreRejected() {
        assertFalse(admitted(new RuleBasedIpFilter(true), InetSocketAddress.createUnresolved("somewhere", 1)));
    }
}
