/**
 * {@link io.rill.resolver.dns.DnsNameResolver}: an asynchronous stub resolver that asks the
 * recursive servers of {@code /etc/resolv.conf} (or given ones) over UDP, falls back to TCP for
 * truncated answers, checks every answer against its query, and caches by TTL.
 */
package io.rill.resolver.dns;
