package io.rill.handler.ipfilter;

/** What an {@link IpFilterRule} does with a matching peer. */
public enum IpFilterRuleType {
    ACCEPT,
    REJECT
}
