package io.rill.handler.ipfilter;

import java.net.InetSocketAddress;
import java.util.List;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Filters peers by an ordered list of {@link IpFilterRule}s: the first rule that matches
 * decides; a peer no rule matches is accepted or rejected as configured. Linear in the number
 * of rules; for many subnet rules see {@link IpSubnetFilter}.
 *
 * <p>Stateless: sharable.
 */
@ChannelHandler.Sharable
public class RuleBasedIpFilter extends AbstractIpFilter {

    private final boolean acceptIfNotFound;
    private final List<IpFilterRule> rules;

    /**
     * Accepts peers no rule matches.
     *
     * @param rules the rules, tried in order; none null
     */
    public RuleBasedIpFilter(IpFilterRule... rules) {
        this(true, rules);
    }

    /**
     * Filters by {@code rules}, tried in order; a peer no rule matches is accepted if {@code
     * acceptIfNotFound}.
     *
     * @param acceptIfNotFound what to do with a peer no rule matches
     * @param rules            the rules, tried in order; none null
     * @throws NullPointerException if a rule is null
     */
    public RuleBasedIpFilter(boolean acceptIfNotFound, IpFilterRule... rules) {
        this.acceptIfNotFound = acceptIfNotFound;
        this.rules = List.of(rules); // also rejects null rules
    }

    @Override
    protected boolean accept(ChannelHandlerContext ctx, InetSocketAddress remoteAddress) {
        for (IpFilterRule rule : rules) {
            if (rule.matches(remoteAddress)) {
                return rule.ruleType() == IpFilterRuleType.ACCEPT;
            }
        }
        return acceptIfNotFound;
    }
}
