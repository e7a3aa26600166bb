package io.rill.handler.ipfilter;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Filters peers against many {@link IpSubnetFilterRule}s in O(log n): the rules are sorted
 * once, and a peer is looked up by binary search.
 *
 * <p>CIDR subnets either nest or do not overlap. A subnet inside another of the same type adds
 * nothing and is dropped; a subnet inside one of the opposite type would make the answer
 * depend on rule order, which a sorted table does not have, so it is refused at construction
 * ({@link RuleBasedIpFilter} takes ordered rules). What is left is disjoint, so the only
 * candidate for a peer is the subnet with the greatest network address not above it.
 *
 * <p>IPv4-mapped IPv6 peers are looked up as IPv4 (see {@link IpSubnetFilterRule}); IPv4
 * peers are also tried, in mapped form, against IPv6 subnets that span the mapped range.
 *
 * <p>Immutable: sharable.
 */
@ChannelHandler.Sharable
public class IpSubnetFilter extends AbstractIpFilter {

    private final boolean acceptIfNotFound;
    /** Disjoint IPv4 subnets, sorted. */
    private final IpSubnetFilterRule[] ipv4;
    /** Disjoint IPv6 subnets, sorted. */
    private final IpSubnetFilterRule[] ipv6;

    /**
     * Accepts peers no rule matches.
     *
     * @param rules the subnets and what to do with their peers
     * @throws IllegalArgumentException if a subnet lies inside one of the opposite type
     */
    public IpSubnetFilter(IpSubnetFilterRule... rules) {
        this(true, rules);
    }

    /**
     * Filters by {@code rules}; a peer no rule matches is accepted if {@code acceptIfNotFound}.
     *
     * @param acceptIfNotFound what to do with a peer no rule matches
     * @param rules            the subnets and what to do with their peers
     * @throws IllegalArgumentException if a subnet lies inside one of the opposite type
     */
    public IpSubnetFilter(boolean acceptIfNotFound, IpSubnetFilterRule... rules) {
        this.acceptIfNotFound = acceptIfNotFound;
        List<IpSubnetFilterRule> v4 = new ArrayList<>();
        List<IpSubnetFilterRule> v6 = new ArrayList<>();
        for (IpSubnetFilterRule rule : rules) {
            (rule.isIpv4() ? v4 : v6).add(rule);
        }
        this.ipv4 = disjoint(v4);
        this.ipv6 = disjoint(v6);
    }

    private static IpSubnetFilterRule[] disjoint(List<IpSubnetFilterRule> rules) {
        IpSubnetFilterRule[] sorted = rules.toArray(new IpSubnetFilterRule[0]);
        Arrays.sort(sorted); // an enclosing subnet sorts before what it encloses
        List<IpSubnetFilterRule> kept = new ArrayList<>();
        for (IpSubnetFilterRule rule : sorted) {
            IpSubnetFilterRule last = kept.isEmpty() ? null : kept.get(kept.size() - 1);
            if (last != null && last.encloses(rule)) {
                if (last.ruleType() != rule.ruleType()) {
                    throw new IllegalArgumentException(
                            rule + " lies inside " + last + "; use RuleBasedIpFilter for ordered rules");
                }
                continue;
            }
            kept.add(rule);
        }
        return kept.toArray(new IpSubnetFilterRule[0]);
    }

    @Override
    protected boolean accept(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) {
        byte[] addr = IpSubnetFilterRule.canonicalBytes(remoteAddress.getAddress());
        IpSubnetFilterRule match = find(addr.length == 4 ? ipv4 : ipv6, addr);
        if (match == null && addr.length == 4) {
            match = findMapped(addr);
        }
        return match == null ? acceptIfNotFound : match.ruleType() == IpFilterRuleType.ACCEPT;
    }

    /** The subnet containing {@code addr}: the last one whose network is not above it, if it contains it. */
    private static IpSubnetFilterRule find(IpSubnetFilterRule[] rules, byte[] addr) {
        int lo = 0;
        int hi = rules.length - 1;
        int candidate = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (rules[mid].compareNetworkTo(addr) <= 0) {
                candidate = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return candidate >= 0 && rules[candidate].containsCanonical(addr) ? rules[candidate] : null;
    }

    /** An IPv4 peer against the IPv6 subnets wide enough to contain mapped addresses. */
    private IpSubnetFilterRule findMapped(byte[] ipv4Addr) {
        for (IpSubnetFilterRule rule : ipv6) {
            if (rule.prefixLength() < 96 && rule.containsCanonical(ipv4Addr)) {
                return rule;
            }
        }
        return null;
    }
}
