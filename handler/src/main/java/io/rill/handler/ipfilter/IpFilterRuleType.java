package io.rill.handler.ipfilter;

/** What an {@link IpFilterRule} does with a matching peer. */
public enum IpFilterRuleType {
    /** A matching peer may keep its channel. */
    ACCEPT,
    /** A matching peer's channel is closed. */
    REJECT
}
