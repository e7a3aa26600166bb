package io.rill.handler.ipfilter;

import java.net.InetSocketAddress;

/** One rule of a {@link RuleBasedIpFilter}: which peers it matches, and what to do with them. */
public interface IpFilterRule {

    /**
     * True if this rule applies to {@code remoteAddress}.
     *
     * @param remoteAddress the peer's resolved address
     * @return whether the rule applies
     */
    boolean matches(InetSocketAddress remoteAddress);

    /**
     * What the rule does with a peer it matches.
     *
     * @return accept or reject
     */
    IpFilterRuleType ruleType();
}
