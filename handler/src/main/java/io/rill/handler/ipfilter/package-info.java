/**
 * Accepting or refusing connections by the peer's address, before any byte is read:
 * {@link io.rill.handler.ipfilter.IpSubnetFilter} (CIDR subnets, IPv4 and IPv6),
 * {@link io.rill.handler.ipfilter.RuleBasedIpFilter} (an ordered list of
 * {@link io.rill.handler.ipfilter.IpFilterRule}s) and {@link io.rill.handler.ipfilter.UniqueIpFilter}
 * (one connection per address at a time). Subclass {@link io.rill.handler.ipfilter.AbstractIpFilter}
 * for another rule.
 */
package io.rill.handler.ipfilter;
