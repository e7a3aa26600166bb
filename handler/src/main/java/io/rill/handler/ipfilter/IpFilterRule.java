package io.rill.handler.ipfilter;

import java.net.InetSocketAddress;

/** One rule of a {@link RuleBasedIpFilter}: which peers it matches, and what to do with them. */
public interface IpFilterRule {

    /** True if this rule applies to {@code remoteAddress}. */
    boolean matches(InetSocketAddress remoteAddress);

    IpFilterRuleType ruleType();
}
